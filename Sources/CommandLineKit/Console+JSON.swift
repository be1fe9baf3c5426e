import Foundation

extension Console {
    /// One JSON document on stdout, keys sorted so output is stable.
    public func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        output(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
