import Foundation
import Imaging
import Testing

/// Issue 17, "Polish a new user ran into": options before the subcommand,
/// hints that work, "did you mean", usage errors that write nothing, the
/// confidence forms, one error style, import's summary wording.
@Suite(.serialized) struct NewUserPolishTests {
    /// A folder of five Fashion-MNIST PNGs and a hidden folder with one more.
    private func photos() throws -> PhotoFolder {
        let folder = try PhotoFolder()
        for index in 0..<5 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(9)), to: "photos/.thumbs/9.png")
        return folder
    }

    @Test func catalogueModelAndOutputOptionsComeBeforeTheSubcommandToo() throws {
        let folder = try photos()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["--db", db, "--prep", "fashion-mnist", "import", "--json", folder.path("photos")])
        #expect(imported.status == 0, "\(imported.stderr)")
        let before = try WardrobeProcess.run(["--db=\(db)", "--json", "stats"])
        let after = try WardrobeProcess.run(["stats", "--db", db, "--json"])
        #expect(before.status == 0 && before.stdout == after.stdout, "\(before.stderr)")
        let listed = try WardrobeProcess.run(["--db", db, "list", "--limit", "2"])
        #expect(listed.status == 0 && listed.stdout.split(separator: "\n").count == 3, "\(listed.stdout)\(listed.stderr)")
        let model = try WardrobeProcess.run(["--json", "model", "info"])
        #expect(model.status == 0 && model.stdout.hasPrefix("{"), "\(model.stderr)")
    }

    /// Every "See '...'" and "'wardrobe ...'" hint the tool prints runs as printed.
    @Test func everyHintTheToolPrintsWorks() throws {
        let root = try WardrobeProcess.run(["--help"])
        let commands = HelpSections.subcommands(root.stdout)
        #expect(commands.contains("list") && commands.contains("model"))
        var hints = [hint(in: root.stdout)].compactMap { $0 }
        for command in commands {
            let help = try WardrobeProcess.run(["help", command])
            #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW:"), "help \(command)")
            let nested = HelpSections.subcommands(help.stdout)
            hints += [hint(in: help.stdout)].compactMap { $0 }
            for sub in nested {
                let byHint = try WardrobeProcess.run([command, "help", sub])
                let byFlag = try WardrobeProcess.run([command, sub, "--help"])
                #expect(byHint.status == 0 && byHint.stdout == byFlag.stdout, "\(command) help \(sub): \(byHint.stderr)")
                // A usage error's pointer to help.
                let wrong = try WardrobeProcess.run([command, sub, "--no-such-option"])
                #expect(wrong.status == 64)
                hints += [hint(in: wrong.stderr)].compactMap { $0 }
            }
            let wrong = try WardrobeProcess.run([command, "--no-such-option"])
            #expect(wrong.status == 64)
            hints += [hint(in: wrong.stderr)].compactMap { $0 }
        }
        #expect(hints.contains("wardrobe model help <subcommand>"))
        #expect(hints.contains("wardrobe list --help"))
        for hint in Set(hints) {
            // A real subcommand in place of the placeholder: the group's first one.
            let words = hint.split(separator: " ").dropFirst().map {
                $0 == "<subcommand>" ? (hint.hasPrefix("wardrobe model") ? "info" : "list") : String($0)
            }
            let result = try WardrobeProcess.run(words)
            #expect(result.status == 0, "'\(hint)' fails: \(result.stderr)")
        }
        // The hints in messages: a fresh install's list, import's known failures, prep's help.
        let folder = try photos()
        defer { folder.remove() }
        let fresh = try WardrobeProcess.run(["list", "--db", folder.path("none.sqlite")])
        #expect(fresh.status == 1 && fresh.stderr.contains("import photos first ('wardrobe import FOLDER')"), "\(fresh.stderr)")
        let suggested = try WardrobeProcess.run(["import", "--db", folder.path("none.sqlite"), "--prep", "fashion-mnist",
                                                 folder.path("photos")])
        #expect(suggested.status == 0, "the hint's command works: \(suggested.stderr)")
        for words in [["prep", "--help"], ["failures", "--db", folder.path("none.sqlite")], ["prune", "--db", folder.path("none.sqlite")]] {
            #expect(try WardrobeProcess.run(words).status == 0, "\(words)")
        }
    }

    /// The commands that read image files name every format the decoder reads; `classify`
    /// said "JPEG or PNG" and `import` named none, though both read HEIF, AVIF and WebP.
    @Test(arguments: ["classify", "prep", "import"])
    func helpNamesEveryFormatTheCommandReads(command: String) throws {
        let help = try WardrobeProcess.run(["help", command])
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for format in ImageFormat.allCases {
            #expect(text.contains(format.name), "\(command)'s help does not name \(format.name)")
        }
    }

    @Test func mistypedNamesAreWrongUsageWithTheNearestName() throws {
        let folder = try photos()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        let cases: [([String], String)] = [
            (["lsit"], "did you mean 'list'?"),
            (["model", "evalute"], "did you mean 'evaluate'?"),
            (["list", "--db", db, "--limt", "3"], "did you mean '--limit'?"),
            (["list", "--db", db, "--label", "cot"], "did you mean 'Coat'?"),
            (["label", "--db", db, "sneker", "1"], "did you mean 'Sneaker'?"),
            (["import", "--db", db, "--prep", "phto", folder.path("photos")], "did you mean 'photo'?"),
            (["prep", "--recipe", "fashion_mnist", folder.path("photos/1.png")], "did you mean 'fashion-mnist'?"),
            (["completions", "bsh"], "did you mean 'bash'?"),
        ]
        for (words, suggestion) in cases {
            let result = try WardrobeProcess.run(words)
            #expect(result.status == 64, "\(words): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(suggestion), "\(words): \(result.stderr)")
            // One error style: lowercase `error:` as every other error.
            #expect(result.stderr.hasPrefix("error: ") && !result.stderr.contains("Error:"), "\(result.stderr)")
        }
        let limit = try WardrobeProcess.run(["list", "--db", db, "--limit", "-1"])
        #expect(limit.status == 64 && limit.stderr.contains("--limit must be 0 or more (not -1)"), "\(limit.stderr)")
        #expect(!limit.stderr.contains("9223372036854775807"))
    }

    /// `list --help` said an unknown label "lists the ten", where a near typo names the nearest
    /// label instead, and a word several labels fit names those: the help says what happens.
    @Test func theHelpSaysWhatAnUnknownLabelDoes() throws {
        let help = try WardrobeProcess.run(["list", "--help"])
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.status == 0 && !text.contains("lists the ten"), "\(help.stdout)")
        #expect(text.contains("an unknown label names the nearest one ('cot': did you mean 'Coat'?), else lists them all; "
                              + "a word that fits several ('shoes') names those"), "\(text)")
        let folder = try photos()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        for (word, says) in [("cot", "did you mean 'Coat'?"), ("xylophone", "the labels are: T-shirt/top, "),
                             ("shoes", "'shoes' could be ")] {
            let result = try WardrobeProcess.run(["list", "--db", db, "--label", word])
            #expect(result.status == 64 && result.stderr.contains(says), "\(word): \(result.stderr)")
        }
    }

    @Test func aPathThatIsNotThereIsWrongUsageAndWritesNothing() throws {
        let folder = try photos()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        let typo = try WardrobeProcess.run(["import", "--db", db, folder.path("phtos")])
        #expect(typo.status == 64, "\(typo.stderr)")
        #expect(typo.stderr.contains("no such file or folder: \(folder.path("phtos"))"))
        #expect(typo.stderr.contains("did you mean '\(folder.path("photos"))'?"), "\(typo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db), "no catalogue, run or failure record was made")
    }

    @Test func confidenceIsTakenAsTablesShowItOrAsAShare() throws {
        let folder = try photos()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        let share = try WardrobeProcess.run(["list", "--db", db, "--min-confidence", "0.8", "--ids"])
        #expect(share.status == 0)
        for form in ["80%", "80"] {
            let result = try WardrobeProcess.run(["list", "--db", db, "--min-confidence", form, "--ids"])
            #expect(result.status == 0 && result.stdout == share.stdout, "\(form): \(result.stderr)")
        }
        let none = try WardrobeProcess.run(["list", "--db", db, "--min-confidence", "100%", "--max-confidence", "0.5"])
        #expect(none.status == 64)
        let tooMuch = try WardrobeProcess.run(["list", "--db", db, "--min-confidence", "150%"])
        #expect(tooMuch.status == 64 && tooMuch.stderr.contains("--min-confidence"), "\(tooMuch.stderr)")
    }

    @Test func importSummaryWording() throws {
        let folder = try photos()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        let one = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos/0.png")])
        #expect(one.stdout.contains("Imported 1 of 1 file into"), "\(one.stdout)")
        let first = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(first.stdout.contains("files/s"))
        #expect(first.stdout.contains("hidden") && first.stdout.contains("--hidden"), "\(first.stdout)")
        let again = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(again.status == 0 && !again.stdout.contains("files/s"), "nothing new, no rate: \(again.stdout)")
        try folder.write(Array("not an image".utf8), to: "photos/junk.png")
        let quiet = try WardrobeProcess.run(["import", "-q", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(quiet.status == 2)
        #expect(quiet.stderr.contains("junk.png"), "-q prints errors: \(quiet.stderr)")
        #expect(quiet.stdout.split(separator: "\n").count == 1 && quiet.stdout.contains("1 failed"), "and the result: \(quiet.stdout)")
    }

    /// A phone's or a photo program's folder: photos with sidecars (XMP, AAE, a Takeout
    /// export's JSON), a video and notes beside them. Those are passed over by name and
    /// counted in one row; only a file that claims to be an image and is none fails. Each
    /// of the five used to be an error line and a failure, and the import exited 2.
    @Test func sidecarsVideosAndNotesInAFolderArePassedOverByName() throws {
        let folder = try photos()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        for name in ["photos/0.png.json", "photos/0.xmp", "photos/sub/IMG_0001.AAE", "photos/sub/clip.MOV", "photos/notes.txt"] {
            try folder.write(Array("{\"title\": \"0.png\"}".utf8), to: name)
        }
        let dry = try WardrobeProcess.run(["import", "--db", db, "--dry-run", folder.path("photos")])
        #expect(dry.stderr.contains("5 files would be read, 0 unchanged would be skipped, 5 not photos passed over by name"),
                "\(dry.stderr)")
        let clean = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stderr.isEmpty, "\(clean.stderr)")
        #expect(clean.stdout.contains("not photos  5  passed over by name (aae 1, json 1, mov 1, txt 1, xmp 1)"), "\(clean.stdout)")
        #expect(clean.stdout.contains("new images  5"), "\(clean.stdout)")

        try folder.write(Array("not an image".utf8), to: "photos/junk.jpg")
        let junk = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(junk.status == 2)
        #expect(junk.stderr.split(separator: "\n").count == 1 && junk.stderr.contains("junk.jpg: not an image"), "\(junk.stderr)")
        let failures = try WardrobeProcess.run(["failures", "--db", db])
        #expect(failures.stdout.contains("junk.jpg") && !failures.stdout.contains("notes.txt"), "\(failures.stdout)")

        // Named on the command line, a file is read whatever its name; passed over by the
        // next import of its folder, it is failing no more.
        let named = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos/notes.txt")])
        #expect(named.status == 2 && named.stderr.contains("notes.txt: not an image"), "\(named.stderr)")
        #expect(try WardrobeProcess.run(["failures", "--db", db]).stdout.contains("notes.txt"))
        _ = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        let after = try WardrobeProcess.run(["failures", "--db", db])
        #expect(after.stdout.contains("junk.jpg") && !after.stdout.contains("notes.txt"), "\(after.stdout)")

        // Deleted, the junk file fails no more once its folder is imported again.
        try FileManager.default.removeItem(atPath: folder.path("photos/junk.jpg"))
        let cleared = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(cleared.status == 0, "\(cleared.stderr)")
        let none = try WardrobeProcess.run(["failures", "--db", db])
        #expect(!none.stdout.contains("junk.jpg"), "\(none.stdout)")
    }

    /// An error that quotes its input stays a line a person can read: a 2 MB line of
    /// `label -`'s stdin used to come back whole on stderr.
    @Test func anErrorQuotingAHugeInputIsShortened() throws {
        let folder = try photos()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        let line = String(repeating: "x", count: 2_000_000)
        let result = try WardrobeProcess.run(["label", "--db", db, "Coat", "-"], input: line + "\n")
        #expect(result.status == 1, "\(result.stderr.prefix(200))")
        let first = try #require(result.stderr.split(separator: "\n").first)
        #expect(first.count < 10_100 && first.contains("characters left out"), "\(first.prefix(200)) (\(first.count))")
        #expect(first.hasSuffix("is not an image id, a hash prefix (hex digits) or a path"), "\(first.suffix(200))")
    }

    /// A pipe and a link to a device inside a folder are no photo, and reading the pipe would
    /// wait for a writer: they are passed over unopened and counted, where they used to be
    /// passed over without a word.
    @Test func pipesAndDevicesInAFolderArePassedOverAndCounted() throws {
        let folder = try photos()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        #expect(mkfifo(folder.path("photos/pipe.jpg"), 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.path("photos/null.png"), withDestinationPath: "/dev/null")
        let dry = try WardrobeProcess.run(["import", "--db", db, "--dry-run", folder.path("photos")])
        #expect(dry.stderr.contains("2 pipes, sockets or devices passed over"), "\(dry.stderr)")
        let run = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout.contains("special files  2  pipes, sockets or devices passed over unopened"), "\(run.stdout)")
        #expect(run.stdout.contains("new images     5"), "\(run.stdout)")
        let json = try WardrobeProcess.run(["import", "--json", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(json.stdout.contains("\"special_files\" : 2"), "\(json.stdout)")
    }

    /// A backup of the catalogue kept in the photo folder, with another catalogue's
    /// write-ahead log beside it: SQLite files are no photo either. Each was read and
    /// failed as "not an image", and every later import of the folder exited 2.
    @Test func catalogueFilesInAPhotoFolderArePassedOverByName() throws {
        let folder = try photos()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        let backup = try WardrobeProcess.run(["backup", "--db", db, folder.path("photos/wardrobe-backup.sqlite")])
        #expect(backup.status == 0, "\(backup.stderr)")
        try folder.write(Array("not a photo".utf8), to: "photos/old/catalogue.sqlite-wal")
        let again = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(again.stdout.contains("passed over by name (sqlite 1, sqlite-wal 1)"), "\(again.stdout)")
    }

    /// The command quoted in a "See '...'" line.
    private func hint(in text: String) -> String? {
        guard let see = text.range(of: "See '"), let end = text[see.upperBound...].firstIndex(of: "'") else { return nil }
        return String(text[see.upperBound..<end])
    }
}
