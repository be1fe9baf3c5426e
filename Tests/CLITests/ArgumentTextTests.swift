import Foundation
import Imaging
import Testing

/// What people type on the command line and pipe into it, read as they meant it: shell
/// patterns as a shell reads them, ids and hash prefixes without guessing, lines of a list
/// that are paths, and names of the files the tool opens or writes itself, through the
/// built binary on catalogues `wardrobe import` made from real PNG files.
@Suite(.serialized) struct ArgumentTextTests {
    /// The paths `list --path PATTERN` chooses, by file name.
    private func chosen(_ db: String, _ pattern: String) throws -> Set<String> {
        let listed = try WardrobeProcess.run(["list", "--db", db, "--json", "--path", pattern])
        #expect(listed.status == 0, "\(pattern): \(listed.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        return Set(rows.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } })
    }

    @Test func pathPatternsChooseWhatAShellWould() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let names = ["coat1.png", "coat[2024].png", "star*.png", "shirt.png", "b!.png"]
        for (index, name) in names.enumerated() {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/" + name)
        }
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")

        // A shell's negated set: every name whose last character before .png is no digit.
        // GLOB read [!0-9] as a set of !, 0...9: only coat1.png and b!.png, the opposite.
        #expect(try chosen(db, "*[!0-9].png") == ["coat[2024].png", "star*.png", "shirt.png", "b!.png"])
        #expect(try chosen(db, "*[^0-9].png") == ["coat[2024].png", "star*.png", "shirt.png", "b!.png"])
        // Backslash makes a wildcard itself (GLOB knew no backslash: none was chosen).
        #expect(try chosen(db, "*\\[2024\\]*") == ["coat[2024].png"])
        #expect(try chosen(db, "*/star\\*.png") == ["star*.png"])
        // A [ no ] closes is itself: text found anywhere in the path (GLOB: nothing).
        #expect(try chosen(db, "coat[20") == ["coat[2024].png"])
        #expect(try chosen(db, "[") == ["coat[2024].png"])
        // What a shell and GLOB read alike stays as it was.
        #expect(try chosen(db, "*/coat*") == ["coat1.png", "coat[2024].png"])
        #expect(try chosen(db, "*[0-9].png") == ["coat1.png"])
        #expect(try chosen(db, "shirt") == ["shirt.png"])
    }

    /// An --offset past the last match says how many match, where it said none did.
    @Test func anOffsetPastTheEndIsNotNoMatch() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for index in 0..<3 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        let past = try WardrobeProcess.run(["list", "--db", db, "--offset", "5"])
        #expect(past.status == 0 && past.stdout.isEmpty, "\(past.stdout)")
        #expect(past.stderr == "no images past the first 5: 3 match\n", "\(past.stderr)")
        let none = try WardrobeProcess.run(["list", "--db", db, "--offset", "5", "--path", "nothing-here"])
        #expect(none.stderr == "no images match\n", "\(none.stderr)")
    }

    @Test func digitsStartingWithZeroAreAHashPrefixNotAnID() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for index in 0..<24 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(try WardrobeProcess.run(
            ["list", "--db", db, "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        let hashes = rows.compactMap { $0["sha256"] as? String }
        try #require(hashes.count == 24)

        // 0 and the digits that start a hash: read as an id, then as the hash prefix of the
        // number (its zeros gone), it named that image, whose hash does not start with 0.
        for hash in hashes where hash.first.map({ ("1"..."9").contains($0) }) == true {
            let word = "0" + hash.prefix { $0.isASCII && $0.isNumber }
            let shown = try WardrobeProcess.run(["show", "--db", db, "--json", word])
            if shown.status == 0 {
                let image = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
                let sha = image?["sha256"] as? String ?? ""
                #expect(sha.hasPrefix(word), "\(word) named the image \(sha)")
            } else {
                #expect(shown.status == 1 && shown.stderr.contains("hash prefix \(word)"), "\(word): \(shown.stderr)")
            }
            _ = try WardrobeProcess.run(["label", "--db", db, "coat", word])
        }
        // Nothing was labelled by a word no image's hash starts with.
        let corrected = try WardrobeProcess.run(["list", "--db", db, "--corrected", "--ids"])
        let correctedIDs = corrected.stdout.split(separator: "\n").compactMap { Int($0) }
        let rowsByID = Dictionary(uniqueKeysWithValues: rows.compactMap { row -> (Int, String)? in
            guard let id = row["id"] as? Int, let sha = row["sha256"] as? String else { return nil }
            return (id, sha)
        })
        for id in correctedIDs { #expect(rowsByID[id]?.hasPrefix("0") == true, "image \(id) was labelled") }
        // An id as `list` shows it is still an id.
        #expect(try WardrobeProcess.run(["show", "--db", db, "7"]).status == 0)
    }

    @Test func aLineOfTheListThatIsAPathNamesThatFile() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/a.png")
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(1)), to: "photos/1,coat.png")
        let db = folder.path("c.sqlite")
        for name in ["a.png", "1,coat.png"] {
            let imported = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos/" + name)])
            try #require(imported.status == 0, "\(imported.stderr)")
        }
        // A file named 1,coat.png, given on stdin from its folder: it was taken for a row of
        // `list --csv` and image 1 (a.png) was labelled.
        let photos = URL(fileURLWithPath: folder.path("photos"))
        let labelled = try WardrobeProcess.run(["label", "--db", db, "bag", "-"], currentDirectory: photos,
                                               input: "1,coat.png\n")
        #expect(labelled.status == 0, "\(labelled.stderr)")
        #expect(labelled.stdout.contains("1,coat.png") && !labelled.stdout.contains("a.png"), "\(labelled.stdout)")
        // A row of `list --csv` still gives its id.
        let csv = try WardrobeProcess.run(["list", "--db", db, "--csv", "--path", "*/a.png"])
        let again = try WardrobeProcess.run(["label", "--db", db, "sandal", "-"], input: csv.stdout)
        #expect(again.status == 0 && again.stdout.contains("a.png") && again.stderr.contains("labelled 1 image"),
                "\(again.stdout) \(again.stderr)")
    }

    @Test func namesOfFilesTheToolOpensItselfAreTakenAsGivenOrRefused() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/a.png")
        let model = FileManager.default.currentDirectoryPath + "/Models/clothing.aimodel"
        let root = folder.path("")

        // A catalogue or an output named with a byte that is not UTF-8 was made under another
        // name (the byte's stand-in as UTF-8), while the command said it used the name given.
        let named = try WardrobeProcess.shell("\"$0\" import --db \"$(printf 'c\\377.sqlite')\" photos", in: root)
        #expect(named.status == 64 && named.stderr.contains("c\\xFF.sqlite") && named.stderr.contains("UTF-8"),
                "\(named.stderr)")
        let variable = try WardrobeProcess.shell("WARDROBE_DB=\"$PWD/$(printf 'c\\377.sqlite')\" \"$0\" import photos", in: root)
        #expect(variable.status == 1 && variable.stderr.contains("c\\xFF.sqlite") && variable.stderr.contains("UTF-8"),
                "\(variable.stderr)")
        let made = try WardrobeProcess.shell("\"$0\" import --db c.sqlite --prep fashion-mnist photos", in: root)
        try #require(made.status == 0, "\(made.stderr)")
        let exported = try WardrobeProcess.shell("\"$0\" export --db c.sqlite --output \"$(printf 'e\\376.csv')\"", in: root)
        #expect(exported.status == 64 && exported.stderr.contains("e\\xFE.csv"), "\(exported.stderr)")
        let listing = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
        #expect(listing == ["c.sqlite", "photos"], "\(listing)")

        // A model named so through WARDROBE_MODEL is read by its bytes, as --model reads it
        // (the variable was decoded with U+FFFD in the byte's place: no such file).
        let copied = try WardrobeProcess.shell("cp \"\(model)\" \"$(printf 'm\\373.aimodel')\" && WARDROBE_MODEL=\"$PWD/$(printf 'm\\373.aimodel')\" "
                               + "\"$0\" classify --no-save photos/a.png", in: root)
        #expect(copied.status == 0 && copied.stdout.contains("a.png"), "\(copied.stdout) \(copied.stderr)")
    }
}
