extension String {
    /// The text on one line with no control characters, so text from a server or a file can
    /// never move the cursor or change colours: line breaks and tabs become spaces, other
    /// control characters become `�`.
    var plainText: String {
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t":
                result.append(" ")
            case _ where scalar.properties.generalCategory == .control:
                result.append("\u{FFFD}")
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }
}
