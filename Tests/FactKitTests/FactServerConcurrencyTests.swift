import Foundation
import Testing

@testable import FactKit

/// Many connections at once, and a stop while they arrive: what the app does when a repeat run
/// replaces the server a moment after clients connected. Under ThreadSanitizer (scripts/test)
/// these drive the accept path hardest.
@Suite("FactServer under many connections", .timeLimit(.minutes(2)))
struct FactServerConcurrencyTests {
    private static let request = Data("GET /fact HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)

    @Test("48 connections at once each get a fact, then the connection is closed")
    func manyConnections() async throws {
        try await withFactServer { server, _ in
            let port = try #require(await server.port)
            let exchanges = try await withThrowingTaskGroup(of: RawExchange.self) { group in
                for _ in 0..<48 {
                    group.addTask { try await rawExchange(port: port, sending: Self.request, wait: .seconds(30)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(exchanges.count == 48)
            for exchange in exchanges {
                #expect(exchange.statusLine == "HTTP/1.1 200 OK")
                #expect(exchange.closedByServer)
            }
        }
    }

    @Test("stopping while connections arrive: each is answered or closed, none hangs, the port is released")
    func stopWhileConnecting() async throws {
        let server = try FactServer.bundled()
        _ = try await server.start()
        let port = try #require(await server.port)
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<32 {
                group.addTask {
                    do {
                        let exchange = try await rawExchange(port: port, sending: Self.request, wait: .seconds(30))
                        return exchange.closedByServer ? "closed" : "hung"
                    } catch {
                        return "refused"  // the listener was already gone
                    }
                }
                if index == 16 {
                    group.addTask {
                        await server.stop()
                        return "stopped"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(!outcomes.contains("hung"))
        #expect(outcomes.filter { $0 == "stopped" }.count == 1)
        #expect(await !server.isRunning)
        // The port is free again.
        let again = try FactServer.bundled(port: port)
        _ = try await again.start()
        await again.stop()
    }
}
