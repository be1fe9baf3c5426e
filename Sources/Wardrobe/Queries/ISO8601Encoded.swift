import Foundation

/// A date that encodes as an ISO 8601 UTC string (`2024-05-01T12:34:56.789Z`)
/// whatever the encoder's date strategy, so every `--json` shows times alike.
@propertyWrapper
public struct ISO8601Encoded: Sendable, Encodable, Equatable {
    public var wrappedValue: Date

    public init(wrappedValue: Date) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(RowWriter.isoDate(wrappedValue))
    }
}
