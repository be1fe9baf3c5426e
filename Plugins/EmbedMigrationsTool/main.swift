// Writes a Swift file holding every migration's version, name and SQL.
// Usage: EmbedMigrationsTool OUTPUT.swift migrations/0001_name.sql ...
// Names must be NNNN_name.sql, numbered 1, 2, 3... without gaps; anything
// else stops the build with a message naming the file.
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

var entries: [(version: Int, name: String, sql: String)] = []
for path in arguments.dropFirst() {
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
entries.sort { $0.version < $1.version }
for (index, entry) in entries.enumerated() where entry.version != index + 1 {
    fail("migrations must be numbered 1, 2, 3... without gaps or repeats; found \(String(format: "%04d", entry.version))_\(entry.name).sql at position \(index + 1)")
}

var source = """
// Generated at build time by the EmbedMigrations plugin from migrations/*.sql.
// Do not edit: change the migrations folder instead.

extension Migrator {
    static let embeddedMigrations: [Migration] = [

"""
for entry in entries {
    source += "        Migration(version: \(entry.version), name: \(swiftLiteral(entry.name)),\n"
    source += "                  sql: \(swiftLiteral(entry.sql))),\n"
}
source += "    ]\n}\n"

do {
    // Rewrite only on change, so an unchanged schema does not recompile the module.
    if (try? String(contentsOfFile: outputPath, encoding: .utf8)) != source {
        try source.write(toFile: outputPath, atomically: true, encoding: .utf8)
    }
} catch {
    fail("\(outputPath): \(error.localizedDescription)")
}
