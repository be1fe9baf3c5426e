import Foundation

extension Console {
    /// One JSON document on stdout, keys sorted so output is stable.
    public func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try data(Array(try encoder.encode(value)) + [UInt8(ascii: "\n")])
    }
}
