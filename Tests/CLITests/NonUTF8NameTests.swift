import Catalogue
import Foundation
import Imaging
import Testing

/// Issue 17, item 7: file names that are not UTF-8 (bytes `\xff\xfe`) import;
/// the catalogue keeps their exact bytes (`path_bytes`) beside a display
/// form (`\xFF\xFE`), so the same file is found, skipped, pruned and opened
/// again; output shows them escaped, never raw and never as U+FFFD.
@Suite(.serialized) struct NonUTF8NameTests {
    @Test func namesThatAreNotUTF8ImportAndOpenAgain() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let root = Array(folder.path("photos").utf8)
        let png = try PNGEncoder().encode(PhotoFolder.fashionBitmap(3))
        let nested = try PNGEncoder().encode(PhotoFolder.fashionBitmap(4))
        try makeFolder(root)
        try makeFolder(root + Array("/caf".utf8) + [0xE9])                          // Latin-1 "café"
        let image = root + [0x2F, 0xFF, 0xFE] + Array(".png".utf8)
        let inNested = root + Array("/caf".utf8) + [0xE9, 0x2F] + Array("shirt.png".utf8)
        let junk = root + [0x2F, 0xFF] + Array("-bad.jpg".utf8)
        try writeFile(image, png)
        try writeFile(inNested, nested)
        try writeFile(junk, Array("not a jpeg".utf8))

        let db = folder.path("c.sqlite")
        let first = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--json", folder.path("photos")])
        #expect(first.status == 2, "the junk file fails: \(first.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any]
        #expect(report?["new_images"] as? Int == 2, "\(first.stdout) \(first.stderr)")
        let failed = (report?["failed"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
        #expect(failed == [folder.path("photos") + "/\\xFF-bad.jpg"])
        #expect(first.stderr.contains("/\\xFF-bad.jpg"), "\(first.stderr)")
        #expect(!first.stderr.contains("\u{FFFD}") && !first.stderr.contains("No such file"))

        // Stored: a display form, and the exact bytes that open the file again.
        let catalogue = try Catalogue(path: db, mode: .readOnly)
        let rows = try catalogue.database.rows("SELECT path, path_bytes FROM image_paths ORDER BY path") {
            ($0.text(0), $0.isNull(1) ? nil : $0.blob(1))
        }
        #expect(rows.map(\.0) == [folder.path("photos") + "/\\xFF\\xFE.png", folder.path("photos") + "/caf\\xE9/shirt.png"])
        #expect(rows.map(\.1) == [image, inNested])
        let stored = try #require(rows.first?.1)
        #expect(try readFile(stored) == png, "path_bytes opens the very file")
        let failing = try catalogue.database.rows("SELECT path, path_bytes FROM failing_files") { ($0.text(0), $0.blob(1)) }
        #expect(failing.map(\.1) == [junk])

        // Shown escaped, with no raw byte and no U+FFFD in any output.
        let list = try WardrobeProcess.run(["list", "--db", db])
        #expect(list.stdout.contains("\\xFF\\xFE.png") && list.stdout.contains("caf\\xE9/shirt.png"), "\(list.stdout)")
        let csv = try WardrobeProcess.run(["list", "--db", db, "--csv"])
        #expect(csv.stdout.contains("\\xFF\\xFE.png"))
        for output in [list.stdout, csv.stdout] { #expect(!output.contains("\u{FFFD}")) }

        // The raw bytes as an argument name the image (show) and the file (import).
        let show = try WardrobeProcess.shell("\"$0\" show --db \"$1\" \"$(printf '%s/\\377\\376.png' \"$2\")\"", [db, folder.path("photos")])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("\\xFF\\xFE.png"))
        let direct = try WardrobeProcess.shell("\"$0\" import --db \"$1\" --prep fashion-mnist \"$(printf '%s/\\377\\376.png' \"$2\")\"",
                                              [db, folder.path("photos")])
        #expect(direct.status == 0, "\(direct.stderr)")

        // So do they on a line of `label -`'s list, after a byte-order mark and with CRLF
        // (each read as U+FFFD before, the first line's path also behind the mark: not found).
        let listed = try WardrobeProcess.shell("printf '\\357\\273\\277%s/\\377\\376.png\\r\\n' \"$2\" | \"$0\" label --db \"$1\" Dress -",
                                              [db, folder.path("photos")])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("->  Dress") && listed.stdout.contains("\\xFF\\xFE.png"), "\(listed.stdout)")

        // Imported again: unchanged, found by its bytes, nothing new and no failure.
        let again = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", "--json", folder.path("photos")])
        let second = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(again.status == 0, "\(again.stderr)")
        #expect(second?["unchanged"] as? Int == 2 && second?["known_failures"] as? Int == 1, "\(again.stdout)")

        // prune looks at the file by its bytes: there, then gone.
        let present = try WardrobeProcess.run(["prune", "--db", db, "--json"])
        #expect(try missing(present) == 0, "\(present.stdout) \(present.stderr)")
        #expect(unlinkFile(image))
        let gone = try WardrobeProcess.run(["prune", "--db", db, "--json"])
        #expect(try missing(gone) == 1, "\(gone.stdout) \(gone.stderr)")
    }

    /// A name whose display form is another file's real name: byte 0xFF shows as `\xFF`,
    /// and `\xFF.png` (backslash, x, F, F) is a name too. One path row holds one of them;
    /// the second used to take the first's row over, and the first image lost its path.
    /// Now the second is refused with one line, and the first keeps its row.
    @Test func aNameThatShowsAsAnotherFilesIsRefusedAndChangesNoRow() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let root = Array(folder.path("photos").utf8)
        try makeFolder(root)
        let literal = root + Array("/\\xFF.png".utf8), raw = root + [0x2F, 0xFF] + Array(".png".utf8)
        try writeFile(literal, try PNGEncoder().encode(PhotoFolder.fashionBitmap(3)))
        try writeFile(raw, try PNGEncoder().encode(PhotoFolder.fashionBitmap(4)))
        let db = folder.path("c.sqlite")

        for _ in 0..<2 {
            let result = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
            #expect(result.status == 2, "\(result.stdout)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("shows as another file's"),
                    "\(result.stderr)")
            let catalogue = try Catalogue(path: db, mode: .readOnly)
            let rows = try catalogue.database.rows("SELECT path, image_id, path_bytes FROM image_paths") {
                ($0.text(0), $0.int64(1), $0.isNull(2))
            }
            // The file found first (in name order, the literal one) keeps its row and its image.
            #expect(rows.count == 1 && rows.first?.0 == folder.path("photos") + "/\\xFF.png" && rows.first?.2 == true,
                    "\(rows)")
            #expect(try catalogue.database.scalarInt("SELECT count(*) FROM images") == 1)
        }
        // Named on its own, the refused file is refused again; by its path it names no image.
        let direct = try WardrobeProcess.shell("\"$0\" import --db \"$1\" --prep fashion-mnist \"$(printf '%s/\\377.png' \"$2\")\"",
                                              [db, folder.path("photos")])
        #expect(direct.status == 2 && direct.stderr.contains("shows as another file's"), "\(direct.stderr)")
        let show = try WardrobeProcess.shell("\"$0\" show --db \"$1\" \"$(printf '%s/\\377.png' \"$2\")\"", [db, folder.path("photos")])
        #expect(show.status == 1 && show.stderr.contains("not found"), "\(show.stdout) \(show.stderr)")
    }

    private func missing(_ result: WardrobeProcess.Result) throws -> Int? {
        (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["missing"] as? Int
    }

    private func withName<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private func makeFolder(_ bytes: [UInt8]) throws {
        let result = withName(bytes) { mkdir($0, 0o755) }
        try #require(result == 0 || errno == EEXIST)
    }

    private func writeFile(_ name: [UInt8], _ contents: [UInt8]) throws {
        let descriptor = withName(name) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        try #require(written == contents.count)
    }

    private func readFile(_ name: [UInt8]) throws -> [UInt8] {
        let descriptor = withName(name) { open($0, O_RDONLY) }
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return Array(buffer.prefix(max(0, count)))
    }

    private func unlinkFile(_ name: [UInt8]) -> Bool { withName(name) { unlink($0) } == 0 }
}
