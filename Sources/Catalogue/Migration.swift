/// One file of `migrations/`: `0002_current_label.sql` is version 2, named
/// `current_label`. Embedded in the binary at build time.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}
