import Files
import Foundation

extension Console {
    /// One JSON document on stdout, keys sorted so output is stable. `what` names the
    /// document ("the import's report") for the one error line a value JSON cannot hold
    /// gives (`JSONOutputError`); nothing is written then.
    public func json<T: Encodable>(_ value: T, of what: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let bytes: Data
        do {
            bytes = try encoder.encode(value)
        } catch {
            throw JSONOutputError(what: what, error: error)
        }
        let document = VisibleText.jsonEscaped(String(decoding: bytes, as: UTF8.self))
        try data(Array(document.utf8) + [UInt8(ascii: "\n")])
    }
}

/// A document `Console.json` could not write, said in one line: what it is, where in it the
/// value is and what the value is (`the import's report as JSON: results[2].confidence is nan,
/// not a finite number`), where JSONEncoder's own description ("EncodingError.invalidValue(...
/// Swift.EncodingError.Context(codingPath: [...") reached the user.
public struct JSONOutputError: Error, CustomStringConvertible {
    public let what: String
    public let reason: String

    init(what: String, error: any Error) {
        self.what = what
        guard case EncodingError.invalidValue(let value, let context) = error else {
            reason = String(describing: error)
            return
        }
        let place = JSONOutputError.place(context.codingPath)
        switch value {
        case let number as Double where !number.isFinite: reason = "\(place) is \(number), not a finite number"
        case let number as Float where !number.isFinite: reason = "\(place) is \(number), not a finite number"
        default: reason = "\(place) is a value JSON cannot hold"
        }
    }

    /// `results[2].confidence`: keys joined by dots, positions in brackets; `the value` at the top.
    static func place(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "the value" : text
    }

    public var description: String { "cannot write \(what) as JSON: \(reason)" }
}
