import Foundation
import Testing

/// `Models/shoe-labels.tsv`, the kind of shoe a person saw in each training
/// photo of the shoes folder, which `make model` gives as corrections. A
/// wrong line would teach the bundled model a wrong label, and a line of a
/// validation photo would train on what is only to be measured.
@Suite struct ShoeLabelsFileTests {
    static let root = FileManager.default.currentDirectoryPath
    static let kinds: Set<String> = ["Sandal", "Sneaker", "Ankle boot"]

    struct Line { var sha256: String; var label: String; var file: String }

    static func lines() throws -> [Line] {
        let text = try String(contentsOfFile: root + "/Models/shoe-labels.tsv", encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Line(sha256: fields.first ?? "", label: fields.count > 1 ? fields[1] : "",
                        file: fields.count > 2 ? fields[2] : "")
        }
    }

    @Test func everyLineIsAHashAKindOfShoeAndAFileName() throws {
        let lines = try Self.lines()
        #expect(lines.count >= 100)
        for line in lines {
            #expect(line.sha256.count == 64 && line.sha256.allSatisfy { "0123456789abcdef".contains($0) }, "\(line)")
            #expect(Self.kinds.contains(line.label), "\(line)")
            #expect(!line.file.isEmpty, "\(line)")
        }
        #expect(Set(lines.map(\.sha256)).count == lines.count, "each photo once")
        #expect(Set(lines.map(\.label)) == Self.kinds, "every kind is taught")
    }

    /// Imported as `make model` imports them: every photo of the training
    /// shoes folder has a line, and each line's hash is the content of the
    /// training photo it names.
    @Test(.enabled(if: RealPhotos.train != nil, "../shared/data/clothing-photos/train is absent (or set WARDROBE_SHARED): skipped"))
    func everyTrainingShoePhotoIsListedUnderItsOwnHash() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let shoes = RealPhotos.train!.appendingPathComponent("shoes").path
        let db = folder.path("shoes.sqlite")
        let imported = try WardrobeProcess.run(["import", "--quiet", "--db", db, "--model",
                                                Self.root + "/Models/fashion-mnist-only.aimodel", shoes])
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        let listed = try WardrobeProcess.run(["list", "--db", db, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        var hashByFile: [String: String] = [:]
        for row in rows {
            let path = try #require(row["path"] as? String)
            hashByFile[URL(fileURLWithPath: path).lastPathComponent] = row["sha256"] as? String
        }
        let lines = try Self.lines()
        #expect(Set(lines.map(\.file)) == Set(hashByFile.keys), "one line per training shoe photo")
        for line in lines { #expect(hashByFile[line.file] == line.sha256, "\(line.file)") }
    }
}
