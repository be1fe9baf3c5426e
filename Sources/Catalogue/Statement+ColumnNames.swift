import Foundation

/// The current row's values read by column name (`row.int("images")`), for a query read
/// where its SQL is written, as `PostgresRow` reads them. Each name is found once per
/// statement (see `column(_:)`); a query of many rows finds its indexes before the loop.
extension Statement {
    public func isNull(_ name: String) -> Bool { isNull(column(name)) }
    public func int64(_ name: String) -> Int64 { int64(column(name)) }
    public func int(_ name: String) -> Int { int(column(name)) }
    public func text(_ name: String) -> String { text(column(name)) }
    public func optionalText(_ name: String) -> String? { optionalText(column(name)) }
    public func blob(_ name: String) -> [UInt8] { blob(column(name)) }
    public func optionalBlob(_ name: String) -> [UInt8]? { optionalBlob(column(name)) }

    public func label(_ name: String, upTo highest: Int, row: @autoclosure () -> String) throws -> Int {
        try label(column(name), upTo: highest, row: row())
    }

    public func confidence(_ name: String, row: @autoclosure () -> String) throws -> Double {
        try confidence(column(name), row: row())
    }

    public func date(_ name: String, row: @autoclosure () -> String) throws -> Date {
        try date(column(name), row: row())
    }
}
