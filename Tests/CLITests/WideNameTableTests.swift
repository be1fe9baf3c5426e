import Foundation
import Imaging
import Testing

/// `list` and `failures` on photos named in Chinese, Japanese and Korean, with an emoji and
/// a combining accent: the tables align on terminal columns, on a pipe and fitted to a terminal.
@Suite(.serialized) struct WideNameTableTests {
    static let names = ["コート.png", "中文名字的衬衫.png", "👟 sneaker.png", "cafe\u{301}.png", "한국어.png", "plain.png"]

    /// The test's measure of terminal columns (East Asian Width's wide ranges, combining marks).
    private func columns(_ text: Substring) -> Int {
        text.unicodeScalars.reduce(0) { sum, scalar in
            switch scalar.value {
            case 0x300...0x36F: sum
            case 0x3000...0x9FFF, 0xAC00...0xD7A3, 0x1F300...0x1F64F, 0x1F900...0x1F9FF: sum + 2
            default: sum + 1
            }
        }
    }

    private func importedFolder() throws -> (PhotoFolder, String) {
        let folder = try PhotoFolder()
        for (index, name) in WideNameTableTests.names.enumerated() {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(name)")
        }
        try folder.write(Array("not a photo".utf8), to: "photos/壊れた写真.jpg")
        try folder.write(Array("nor this".utf8), to: "photos/x.jpg")
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--jobs", "1", "--prep", "fashion-mnist", folder.path("photos")])
        #expect(imported.status == 2, "\(imported.stderr)")
        return (folder, db)
    }

    /// The last column (a date, `yyyy-MM-dd HH:mm`) starts at the same column on every line.
    @Test func listAndFailuresAlignOnColumnsOnAPipe() throws {
        let (folder, db) = try importedFolder()
        defer { folder.remove() }
        let list = try WardrobeProcess.run(["list", "--db", db, "--sort", "id"])
        #expect(list.status == 0, "\(list.stderr)")
        let rows = list.stdout.split(separator: "\n")
        #expect(rows.count == 1 + WideNameTableTests.names.count, "\(list.stdout)")
        let dateStarts = rows.dropFirst().map { columns($0.dropLast(16)) }
        let header = rows[0].range(of: "IMPORTED").map { columns(rows[0][..<$0.lowerBound]) }
        #expect(Set(dateStarts).count == 1 && header == dateStarts.first, "\(dateStarts), header \(String(describing: header))\n\(list.stdout)")

        let failures = try WardrobeProcess.run(["failures", "--db", db])
        #expect(failures.status == 0, "\(failures.stderr)")
        let lines = failures.stdout.split(separator: "\n")
        #expect(lines.count == 3, "\(failures.stdout)")
        let reasonStarts = lines.dropFirst().map { line in columns(line[..<line.range(of: "not an image")!.lowerBound]) }
        let reasonHeader = lines[0].range(of: "REASON").map { columns(lines[0][..<$0.lowerBound]) }
        #expect(Set(reasonStarts).count == 1 && reasonHeader == reasonStarts.first, "\(reasonStarts)\n\(failures.stdout)")
    }

    /// On a 70-column terminal (through `script`) every line of `list` fits: the hash and
    /// the date are left out, and a path of wide characters is shortened by the columns it takes.
    @Test func listFitsANarrowTerminalWithWideNames() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script gives a terminal")
        let (folder, db) = try importedFolder()
        defer { folder.remove() }
        let command = "COLUMNS=70 NO_COLOR=1 LC_ALL=C '\(WardrobeProcess.executable.path)' list --db '\(db)'"
        let lines = try WardrobeProcess.onTerminal(command)
        let text = lines.joined(separator: "\n")
        #expect(lines.count == 1 + WideNameTableTests.names.count, "\(text)")
        for line in lines { #expect(columns(line) <= 70, "\(columns(line)): \(line)") }
        // The path is last now: every path starts at the column its header does.
        let pathStarts = lines.map { line in columns(line[..<(line.range(of: "/") ?? line.range(of: "PATH")!).lowerBound]) }
        #expect(Set(pathStarts).count == 1, "\(pathStarts)\n\(text)")
    }
}
