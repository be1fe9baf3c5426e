import Foundation

/// What SQLite said when a call failed, carried by `CatalogueError.sqlite`.
/// Bound values are never part of it: they may be large or private.
public struct SQLiteFailure: Equatable, Sendable, CustomStringConvertible {
    /// The primary result code (`SQLITE_FULL` is 13, `SQLITE_CONSTRAINT` 19...).
    public let code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067...).
    public let extendedCode: Int32
    /// SQLite's own message for the failure.
    public let message: String
    /// The SQL that failed, if the failure came from a statement.
    public let sql: String?
    /// The database file, `:memory:` for an in-memory one.
    public let path: String

    public init(code: Int32, extendedCode: Int32, message: String, sql: String?, path: String) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    public var description: String {
        "\(path == ":memory:" ? "in-memory database" : path): \(detail)"
    }

    /// What SQLite said and while doing what, without the file's name.
    public var detail: String {
        var text = "SQLite error \(code)"
        if extendedCode != code { text += " (extended \(extendedCode))" }
        text += ": \(message)"
        if let sql {
            let oneLine = sql.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
                .joined(separator: " ")
            text += " - while executing `\(oneLine)`"
        }
        return text
    }
}
