import CJansson

/// A JSON value read by Jansson in its strict mode: an object that names a
/// key twice is refused, where Foundation's reader keeps one of the two
/// entries without a word. A model header, and a rehearsal's, is read only this way, so no two
/// readers can disagree about which bytes a tensor name stands for.
package enum StrictJSON: Equatable {
    case object([String: StrictJSON])
    case array([StrictJSON])
    case string(String)
    /// A number; `integer` holds its value when it is a whole number.
    case number(Double, integer: Int?)
    case bool(Bool)
    case null

    package enum Failure: Error, Equatable {
        /// The text names a key twice in one object; `detail` says which and where.
        case repeatedKey(detail: String)
        case invalid(detail: String)
    }

    /// Parses `text`; any top-level value is accepted, the caller says what it needs.
    package static func parse(_ text: ArraySlice<UInt8>) throws(Failure) -> StrictJSON {
        var error = json_error_t()
        let root = text.withUnsafeBufferPointer { json in
            json_loadb(json.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, json.count,
                       Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY), &error)
        }
        guard let root else {
            let message = withUnsafeBytes(of: error.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw json_error_code(&error) == json_error_duplicate_key
                ? .repeatedKey(detail: "\(message), byte \(error.position)")
                : .invalid(detail: message)
        }
        defer { json_decref(root) }
        return StrictJSON(root)
    }

    /// Copies Jansson's tree. Its strings hold no NUL: without
    /// JSON_ALLOW_NUL the reader refuses "\u0000".
    private init(_ value: UnsafeMutablePointer<json_t>) {
        switch value.pointee.type {
        case JSON_OBJECT:
            var members: [String: StrictJSON] = [:]
            var iterator = json_object_iter(value)
            while let current = iterator {
                members[String(cString: json_object_iter_key(current))] = StrictJSON(json_object_iter_value(current))
                iterator = json_object_iter_next(value, current)
            }
            self = .object(members)
        case JSON_ARRAY:
            self = .array((0..<json_array_size(value)).map { StrictJSON(json_array_get(value, $0)) })
        case JSON_STRING:
            self = .string(String(cString: json_string_value(value)))
        case JSON_INTEGER:
            let integer = json_integer_value(value)
            self = .number(Double(integer), integer: Int(integer))
        case JSON_REAL:
            let real = json_real_value(value)
            let whole = real.rounded() == real && abs(real) < 9.0e15 ? Int(real) : nil
            self = .number(real, integer: whole)
        case JSON_TRUE:
            self = .bool(true)
        case JSON_FALSE:
            self = .bool(false)
        default:
            self = .null
        }
    }

    package var object: [String: StrictJSON]? {
        if case .object(let members) = self { members } else { nil }
    }

    package var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// A list of whole numbers, or nil when it is not one.
    package var integers: [Int]? {
        guard case .array(let items) = self else { return nil }
        var result: [Int] = []
        for item in items {
            guard case .number(_, let integer?) = item else { return nil }
            result.append(integer)
        }
        return result
    }
}
