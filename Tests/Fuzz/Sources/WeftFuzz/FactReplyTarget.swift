import AsyncHTTPClient
import FactKit
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// A fact server's reply, as `FactService` reads it: the status, the headers that matter
/// (`Content-Length`), the body under its size limit, then the body decoded as a fact.
///
/// The input is two bytes of status code, the header lines (`Name: value`, one per line),
/// a NUL, then the body, which arrives in chunks of up to 7 bytes. Only a `200` with a body
/// within the limit is read; whatever is refused is a `FactServiceError` naming the URL; an
/// accepted fact is exactly what `JSONSerialization` finds in the body, and a well-formed one is
/// never refused.
enum FactReplyTarget {
    static let name = "fact-reply"
    static let url = URL(string: "http://127.0.0.1:9/fact")!
    /// Small, so the fuzzer reaches it.
    static let limit = 512

    static let run: FuzzTarget = { bytes in
        guard bytes.count >= 2 else { return }
        let code = (Int(bytes[0]) << 8 | Int(bytes[1])) % 1000
        let parts = split(Array(bytes.dropFirst(2)), by: 0, parts: 2)
        var headers = HTTPHeaders()
        for line in String(decoding: parts[0], as: UTF8.self).split(whereSeparator: \.isNewline) {
            // What NIO's parser lets through: a token for a name (AsyncHTTPClient never hands
            // over anything else).
            guard let colon = line.firstIndex(of: ":"), HTTPField.Name(String(line[..<colon])) != nil else { continue }
            headers.add(
                name: String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        let body = parts.count > 1 ? parts[1] : []
        let chunks = stride(from: 0, to: body.count, by: 7).map {
            ByteBuffer(bytes: body[$0..<min($0 + 7, body.count)])
        }
        let response = HTTPClientResponse(
            status: HTTPResponseStatus(statusCode: code), headers: headers, body: .stream(chunks.async))
        let outcome = blocking { () -> Result<Data, FactServiceError> in
            do {
                return .success(try await FactService.body(of: response, url: url, maximumBodySize: limit))
            } catch let error as FactServiceError {
                return .failure(error)
            } catch {
                fuzzFailure("reading the body failed other than as a FactServiceError: \(error)")
            }
        }
        let declared = headers.first(name: "Content-Length").flatMap(Int.init)
        switch outcome {
        case .failure(.httpStatus(url, code)) where code != 200:
            return
        case .failure(.bodyTooLarge(url, limit)) where code == 200 && (body.count > limit || (declared ?? 0) > limit):
            return
        case .failure(let error):
            fuzzFailure(
                "refused \(code), \(body.count) bytes, Content-Length \(declared.map(String.init) ?? "none") as \(error)"
            )
        case .success(let data):
            require(code == 200 && data == Data(body), "a \(code) answer's body was read, or read wrong")
            checkDecoding(data)
        }
    }

    static func checkDecoding(_ data: Data) {
        let object = (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) as? [String: Any]
        do {
            let fact = try FactService.decodeFact(from: data, url: url)
            require(object?["fact"] as? String == fact.fact, "a fact decoded that JSONSerialization does not see")
            require(fact.length >= 0, "a negative length")
        } catch {
            guard case .invalidBody(url, let reason) = error else {
                fuzzFailure("decoding failed other than as invalidBody: \(error)")
            }
            require(!reason.isEmpty && error.description.contains(url.absoluteString), "\(error)")
            // Valid strict JSON (no key twice), whose length is a whole number of at most 15
            // digits, an integer to every reader: such a fact must be accepted.
            if let object, (try? JSONDocument.parse([UInt8](data))) != nil, object["fact"] is String,
                let length = object["length"].map({ "\($0)" }),
                (1...15).contains(length.count), length.allSatisfy(\.isASCII), length.allSatisfy(\.isNumber)
            {
                fuzzFailure("a well-formed fact was refused: \(reason)")
            }
        }
    }
}

extension Array where Element == ByteBuffer {
    /// The buffers as the asynchronous sequence of chunks a response body is.
    var async: AsyncStream<ByteBuffer> {
        AsyncStream { continuation in
            for buffer in self { continuation.yield(buffer) }
            continuation.finish()
        }
    }
}
