// Writes a Swift file holding every migration's version, name and SQL, for each engine.
// Usage: EmbedMigrationsTool OUTPUT.swift migrations/0001_name.sql ... --postgresql migrations/postgresql/0012_name.sql ...
// Names must be NNNN_name.sql. SQLite's are numbered 1, 2, 3... without gaps. PostgreSQL's
// start later (its first step makes at once the schema SQLite reached by then) and go on
// without gaps to SQLite's last: the two engines are always at the same step, so a schema
// change that is written for one engine only stops the build with a message saying so.
// A SQLite step whose first line is `-- Both engines` is written in SQL both read alike
// (an added column of `text`, `bigint` or `double precision`), and is PostgreSQL's step too.
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

/// A Swift string literal for any text: escapes instead of raw delimiters, so
/// no SQL content can end the literal early.
func swiftLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

let arguments = CommandLine.arguments.dropFirst()
guard let outputPath = arguments.first else { fail("usage: EmbedMigrationsTool OUTPUT.swift FILE.sql...") }

typealias Entry = (version: Int, name: String, sql: String)

func read(_ paths: [String]) -> [Entry] {
    var entries: [Entry] = []
    for path in paths {
        let file = URL(fileURLWithPath: path).lastPathComponent
        let stem = file.hasSuffix(".sql") ? String(file.dropLast(4)) : file
        let parts = stem.split(separator: "_", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 4, let version = Int(parts[0]), !parts[1].isEmpty else {
            fail("\(path): migration files are named NNNN_name.sql")
        }
        guard let sql = try? String(contentsOfFile: path, encoding: .utf8) else {
            fail("\(path): cannot be read as UTF-8 text")
        }
        entries.append((version, String(parts[1]), sql))
    }
    return entries.sorted { $0.version < $1.version }
}

func fileName(_ entry: Entry) -> String { "\(String(format: "%04d", entry.version))_\(entry.name).sql" }

/// The first line that marks a SQLite step as PostgreSQL's too.
let bothEngines = "-- Both engines"

let files = Array(arguments.dropFirst())
let marker = files.firstIndex(of: "--postgresql") ?? files.endIndex
let entries = read(Array(files[..<marker]))
let ownPostgreSQL = read(Array(files[marker...].dropFirst()))
for entry in entries where entry.sql.hasPrefix(bothEngines) {
    if ownPostgreSQL.contains(where: { $0.version == entry.version }) {
        fail("migrations/\(fileName(entry)) is marked for both engines, and migrations/postgresql has its own step \(entry.version) too")
    }
}
let postgresql = (ownPostgreSQL + entries.filter {
    $0.sql.hasPrefix(bothEngines) && $0.version > (ownPostgreSQL.first?.version ?? Int.max)
}).sorted { $0.version < $1.version }
for (index, entry) in entries.enumerated() where entry.version != index + 1 {
    fail("migrations must be numbered 1, 2, 3... without gaps or repeats; found \(fileName(entry)) at position \(index + 1)")
}
if let first = postgresql.first {
    for (index, entry) in postgresql.enumerated() where entry.version != first.version + index {
        fail("migrations/postgresql must be numbered without gaps or repeats; found \(fileName(entry)) after \(fileName(postgresql[index - 1]))")
    }
}
if let ahead = postgresql.last, ahead.version > entries.last?.version ?? 0 {
    fail("migrations/postgresql/\(fileName(ahead)) has no SQLite counterpart: every schema step is written for both engines")
}
if let last = entries.last, postgresql.last?.version != last.version {
    let missing = (postgresql.last.map { $0.version + 1 } ?? 1)...last.version
    fail("migrations/\(fileName(last)) has no PostgreSQL counterpart: every schema step is written for both engines, "
         + "so migrations/postgresql needs \(missing.map { String(format: "%04d", $0) }.joined(separator: ", ")) "
         + "(the same change in PostgreSQL's SQL), or the SQLite step's first line `\(bothEngines)` where both "
         + "engines read its SQL alike; see migrations/README.md")
}

var source = """
// Generated at build time by the EmbedMigrations plugin from migrations/*.sql.
// Do not edit: change the migrations folder instead.

extension Migrator {
    static let embeddedMigrations: [Migration] = [

"""
func literals(_ entries: [Entry]) -> String {
    entries.map { entry in
        "        Migration(version: \(entry.version), name: \(swiftLiteral(entry.name)),\n"
            + "                  sql: \(swiftLiteral(entry.sql))),\n"
    }.joined()
}
source += literals(entries)
source += "    ]\n\n    static let embeddedPostgreSQLMigrations: [Migration] = [\n"
source += literals(postgresql)
source += "    ]\n}\n"

do {
    // Rewrite only on change, so an unchanged schema does not recompile the module.
    if (try? String(contentsOfFile: outputPath, encoding: .utf8)) != source {
        try source.write(toFile: outputPath, atomically: true, encoding: .utf8)
    }
} catch {
    fail("\(outputPath): \(error.localizedDescription)")
}
