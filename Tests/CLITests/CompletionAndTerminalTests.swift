import Foundation
import Imaging
import Testing

/// Issue 17's polish: shell completion and a manual written from the option
/// declarations and help, and `list` fitted to a terminal's width.
@Suite(.serialized) struct CompletionAndTerminalTests {
    /// Completes `line` (the word under the cursor last) with the bash script the tool writes.
    private func bashCompletions(_ words: [String], script: String, in directory: String? = nil) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-completion-\(UUID().uuidString).bash")
        defer { try? FileManager.default.removeItem(at: folder) }
        try script.write(to: folder, atomically: true, encoding: .utf8)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            \(directory.map { "cd '\($0)' || exit 1" } ?? "")
            source '\(folder.path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _wardrobe
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "-c", program]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsLabelsAndRecipes() throws {
        let script = try WardrobeProcess.run(["completions", "bash"])
        #expect(script.status == 0)
        try #require(FileManager.default.isExecutableFile(atPath: "/bin/bash"), "bash is needed to run the script")
        #expect(try bashCompletions(["wardrobe", "li"], script: script.stdout) == ["list"])
        #expect(try bashCompletions(["wardrobe", "model", "ev"], script: script.stdout) == ["evaluate"])
        #expect(try bashCompletions(["wardrobe", "list", "--lab"], script: script.stdout) == ["--label"])
        #expect(try bashCompletions(["wardrobe", "list", "--label", "co"], script: script.stdout) == ["coat"])
        #expect(try bashCompletions(["wardrobe", "--db", "x.sqlite", "import", "--prep", "ph"], script: script.stdout) == ["photo"])
        #expect(try bashCompletions(["wardrobe", "reclassify", "--"], script: script.stdout).contains("--below"))
        // label's first argument is a label (it completed nothing); the images after it are files.
        #expect(try bashCompletions(["wardrobe", "label", "sn"], script: script.stdout) == ["sneaker"])
        #expect(try bashCompletions(["wardrobe", "--db", "x.sqlite", "label", "--db", "y", "ank"], script: script.stdout)
                == ["ankle-boot"])
        #expect(try bashCompletions(["wardrobe", "label", "coat", "sn"], script: script.stdout).isEmpty)
        #expect(try bashCompletions(["wardrobe", "label", "--cl"], script: script.stdout) == ["--clear"])
        let fish = try WardrobeProcess.run(["completions", "fish"])
        #expect(fish.stdout.contains("__fish_seen_subcommand_from label; and not __fish_seen_subcommand_from model' -a 't-shirt top"),
                "\(fish.stdout)")
    }

    /// File names are offered whole: a folder or photo whose name holds spaces is one
    /// completion, for a command's arguments and for an option that takes a file. (They were
    /// split at each space into words that name nothing.)
    @Test func bashOffersFileNamesWithSpacesWhole() throws {
        let script = try WardrobeProcess.run(["completions", "bash"])
        #expect(script.status == 0)
        try #require(FileManager.default.isExecutableFile(atPath: "/bin/bash"), "bash is needed to run the script")
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path("summer photos"), withIntermediateDirectories: true)
        try folder.write([1], to: "summer catalogue.sqlite")
        #expect(try bashCompletions(["wardrobe", "import", "summer p"], script: script.stdout, in: folder.root.path)
                == ["summer photos"])
        #expect(try bashCompletions(["wardrobe", "list", "--db", "sum"], script: script.stdout, in: folder.root.path).sorted()
                == ["summer catalogue.sqlite", "summer photos"])
        #expect(try bashCompletions(["wardrobe", "list", "--label", "co"], script: script.stdout, in: folder.root.path)
                == ["coat"], "words the tool names are still offered")
    }

    @Test func zshAndFishScriptsAndTheManualComeFromTheSameDeclarations() throws {
        let zsh = try WardrobeProcess.run(["completions", "zsh"])
        #expect(zsh.status == 0 && zsh.stdout.hasPrefix("#compdef wardrobe\n"))
        let fish = try WardrobeProcess.run(["completions", "fish"])
        #expect(fish.status == 0)
        #expect(fish.stdout.contains("-a import -d 'Import photos: hash, thumbnail, prepare and classify every new image.'"))
        #expect(fish.stdout.contains("-l min-confidence -r -F") || fish.stdout.contains("-l min-confidence"))
        #expect(fish.stdout.contains("-l label -x -a 't-shirt top trouser"))
        let manual = try WardrobeProcess.run(["manual"])
        #expect(manual.status == 0 && manual.stdout.hasPrefix(".TH WARDROBE 1"))
        let help = try WardrobeProcess.run(["--help"])
        for command in HelpSections.subcommands(help.stdout) {
            // roff writes a dash in a name as \\-.
            let roff = command.replacingOccurrences(of: "-", with: "\\-")
            #expect(manual.stdout.contains(".SS \"wardrobe \(roff)"), "the manual has \(command)")
        }
        #expect(manual.stdout.contains("\\-\\-min\\-confidence"), "options, dashes escaped for roff")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let folder = try PhotoFolder()
            defer { folder.remove() }
            try folder.write(Array(manual.stdout.utf8), to: "wardrobe.1")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
            process.arguments = ["-man", "-Tutf8", "-ww", folder.path("wardrobe.1")]
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try process.run()
            let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0 && warnings.isEmpty, "\(warnings)")
        }
    }

    /// `list` on an 80-column terminal (through `script`, which gives it one):
    /// every line fits, the hash and the date left out before the path is cut (which kept
    /// them and cut the folder out of the path: `…/Pictur…04ef97a9c26.jpg`), paths
    /// shortened in the middle only then; CSV is never cut.
    @Test func listFitsTheTerminalAndNeverCutsCSV() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script gives a terminal")
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let deep = "photos/" + String(repeating: "a-rather-long-folder-name/", count: 4)
        for index in 0..<3 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "\(deep)photo-\(index).png")
        }
        let db = folder.path("c.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        let command = "COLUMNS=80 NO_COLOR=1 '\(WardrobeProcess.executable.path)' list --db '\(db)'"
        let lines = try WardrobeProcess.onTerminal(command)
        let text = lines.joined(separator: "\n")
        #expect(lines.count == 4, "\(text)")
        for line in lines { #expect(line.count <= 80, "\(line.count): \(line)") }
        #expect(lines.dropFirst().allSatisfy { $0.contains("…") && $0.contains("photo-") }, "shortened in the middle: \(text)")
        #expect(lines.first?.split(separator: " ") == ["ID", "LABEL", "CONF", "PATH"], "\(text)")
        let pathStart = try #require(lines.first?.range(of: "PATH")).lowerBound.utf16Offset(in: lines[0])
        #expect(lines.dropFirst().allSatisfy { $0.count - pathStart >= 55 }, "the path has the room: \(text)")
        let wide = try WardrobeProcess.onTerminal("COLUMNS=400 NO_COLOR=1 '\(WardrobeProcess.executable.path)' list --db '\(db)'")
        #expect(wide.first?.split(separator: " ") == ["ID", "HASH", "LABEL", "CONF", "COLOUR", "PATH", "IMPORTED"], "\(wide)")
        let csv = try WardrobeProcess.run(["list", "--db", db, "--csv"])
        #expect(csv.stdout.contains(folder.path(deep + "photo-0.png")), "CSV keeps whole paths")
    }

    /// Every table with a path fits an 80-column terminal as `list`'s does, its paths
    /// shortened in the middle: `similar`, `duplicates` and what `label` and `colour` say
    /// they changed wrapped each row of a long path onto a second line.
    @Test func tablesWithPathsFitTheTerminal() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script gives a terminal")
        let folder = try DuplicatePhotos.folder()
        defer { folder.remove() }
        let deep = folder.path(String(repeating: "a-rather-long-folder-name/", count: 3) + "photos")
        try FileManager.default.createDirectory(atPath: (deep as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folder.path("photos"), toPath: deep)
        let db = folder.path("c.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, deep])
        for command in ["similar 1", "duplicates", "label coat 1 2", "colour navy 1 2"] {
            let lines = try WardrobeProcess.onTerminal("COLUMNS=80 NO_COLOR=1 '\(WardrobeProcess.executable.path)' \(command) --db '\(db)'")
            let rows = lines.filter { $0.contains(".jpg") }
            #expect(rows.count >= 2, "\(command): \(lines.joined(separator: "\n"))")
            for line in lines { #expect(line.count <= 80, "\(command): \(line.count): \(line)") }
            #expect(rows.allSatisfy { $0.contains("…") }, "\(command): \(lines.joined(separator: "\n"))")
        }
        let piped = try WardrobeProcess.run(["similar", "--db", db, "1"])
        #expect(piped.stdout.contains(deep + "/"), "piped, nothing is cut: \(piped.stdout)")
    }

    /// Facts whose text runs long (`model info`'s layers and training record, `show`'s and
    /// `reclassify`'s sentences) are filled after their names on a terminal, broken between
    /// words; they ran past the edge and broke mid-word. Piped, each stays one line.
    @Test func longFactsAreFilledToTheTerminal() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script gives a terminal")
        // The bundled model named, so no catalogue is looked at.
        let model = FileManager.default.currentDirectoryPath + "/Models/clothing.aimodel"
        let lines = try WardrobeProcess.onTerminal("COLUMNS=80 NO_COLOR=1 '\(WardrobeProcess.executable.path)' model info '\(model)'")
        let layers = try #require(lines.firstIndex { $0.hasPrefix("layers         19: conv2d") }, "\(lines)")
        #expect(lines[layers + 1].hasPrefix(String(repeating: " ", count: 15) + "batchnorm"), "\(lines[layers...layers + 1])")
        for line in lines {
            // A word wider than what the names leave (a hash, a JSON record) stands alone on its line.
            #expect(line.count <= 80 || line.split(separator: " ").count <= 2, "\(line.count): \(line)")
        }
        let piped = try WardrobeProcess.run(["model", "info", model])
        #expect(piped.stdout.contains("layers         19: conv2d batchnorm relu conv2d batchnorm relu maxpool conv2d batchnorm"))
    }

    /// `import`'s progress line on a terminal stays within its width, a column short: with
    /// 40 columns of file name always, it took about 95 and wrapped on an 80-column terminal,
    /// so each redraw cleared only its second row and left the first behind. The name gets
    /// what the figures leave (none on a narrow terminal), all 40 columns on a wide one.
    @Test func progressFitsTheTerminal() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script gives a terminal")
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let name = "a-rather-long-descriptive-name-of-the-photo-"
        for index in 0..<3 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(name)\(index).png")
        }
        for columns in [80, 50, 20, 200] {
            let db = folder.path("c\(columns).sqlite")
            let text = try WardrobeProcess.terminalText("COLUMNS=\(columns) NO_COLOR=1 '\(WardrobeProcess.executable.path)' "
                                                        + "import --db '\(db)' --prep fashion-mnist '\(folder.path("photos"))'")
            let drawn = text.components(separatedBy: "\u{1B}[2K").flatMap { $0.components(separatedBy: "\r") }
                .filter { $0.contains("░") || $0.contains("█") }
            #expect(!drawn.isEmpty, "\(columns): \(text)")
            for line in drawn { #expect(line.count < columns, "\(columns) columns, \(line.count): \(line)") }
            if columns == 200 {
                #expect(drawn.allSatisfy { $0.contains(String(name.prefix(40))) }, "the name where there is room: \(drawn)")
            }
        }
    }

    /// `model train` on an 80-column terminal: its epoch line took 101 columns and the terminal
    /// broke it mid-word, and the bar's time left (the epoch's) and the epoch line's (the whole
    /// run's) said nothing of which was which; so did its two opening lines (141 and 103
    /// columns). Each line fits, broken between words, and says whose time it is.
    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func trainingProgressFitsTheTerminalAndSaysWhoseTimeIsLeft() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script gives a terminal")
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let text = try WardrobeProcess.terminalText("COLUMNS=80 NO_COLOR=1 '\(WardrobeProcess.executable.path)' model train "
                                                    + "--limit 256 --epochs 2 --threads 1 --out '\(folder.path("quick.aimodel"))'")
        let lines = text.components(separatedBy: "\u{1B}[2K")
            .flatMap { $0.components(separatedBy: CharacterSet(charactersIn: "\r\n")) }.filter { !$0.isEmpty }
        let bars = lines.filter { $0.contains("░") || $0.contains("█") }
        let start = try #require(lines.firstIndex { $0.hasPrefix("epoch  1/2  loss") }, "\(text)")
        // The epoch's line, and the lines it goes on on, indented.
        let epoch = [lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
        #expect(!bars.isEmpty && bars.allSatisfy { $0.contains("left in this epoch") && $0.contains("loss ") }, "\(text)")
        #expect(epoch.count >= 2 && epoch.joined().contains("run: ") && epoch.joined().contains(" elapsed, "), "\(text)")
        for line in bars + epoch { #expect(line.count < 80, "\(line.count): \(line)") }
        // The opening: every line up to the first bar, the ones after the first indented, and
        // the words as a log has them on its one line each.
        let opening = try #require(lines.firstIndex { $0.hasPrefix("training: ") }, "\(text)")
        let firstBar = try #require(lines.firstIndex { $0.contains("░") || $0.contains("█") }, "\(text)")
        let head = Array(lines[opening..<firstBar])
        for line in head { #expect(line.count < 80, "\(line.count): \(line)") }
        #expect(head.count >= 4 && head.dropFirst().allSatisfy { $0.hasPrefix("  ") }, "\(head)")
        let words = head.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(words.contains("to check it after each epoch (a network of "), "\(words)")
        #expect(words.contains("seed 1, 1 thread)"), "\(words)")
    }

    /// `show`'s preview on a terminal narrower than its 40 columns is drawn to fit it (each of
    /// its rows wrapped into two); --width, when given, is kept.
    @Test func showsPreviewFitsANarrowTerminal() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script gives a terminal")
        let folder = try PhotoFolder()
        defer { folder.remove() }
        // A light background: every row of the preview is drawn to its end.
        try folder.writePhotos(1, width: 300, height: 300, firstSeed: 1)
        let db = folder.path("c.sqlite")
        let imported = try WardrobeProcess.run(["import", "--db", db, folder.path("photos")])
        try #require(imported.status == 0, "\(imported.stderr)")
        func preview(_ columns: Int, _ extra: String = "") throws -> [Substring] {
            let lines = try WardrobeProcess.onTerminal(
                "COLUMNS=\(columns) NO_COLOR=1 '\(WardrobeProcess.executable.path)' show --db '\(db)' \(extra) 1")
            return Array(lines.prefix { !$0.hasPrefix("image ") })
        }
        #expect(try preview(20).map(\.count).max() == 20)
        #expect(try preview(200).map(\.count).max() == 40)
        #expect(try preview(20, "--width 30").map(\.count).max() == 30)
    }

    /// `label LABEL -` with stdin on a terminal says it reads lines typed there (it waited
    /// without a word, as if it hung); from a pipe it says nothing of it.
    @Test func readingImagesFromATerminalIsSaid() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script gives a terminal")
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(0)), to: "photos/0.png")
        let db = folder.path("c.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "NO_COLOR=1 '\(WardrobeProcess.executable.path)' label --db '\(db)' coat -", "/dev/null"]
        let out = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data("1\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("reading images from the terminal, one a line; end with Ctrl-D"), "\(text)")
        #expect(text.contains("labelled 1 image"), "\(text)")
        let piped = try WardrobeProcess.run(["label", "--db", db, "bag", "-"], input: "1\n")
        #expect(piped.status == 0 && piped.stderr == "labelled 1 image\n", "\(piped.stderr)")
    }
}
