import Foundation
import Testing

/// The conventions every command shares: help, version, usage errors.
@Suite struct CommandLineFrameTests {
    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func rootHelpGoesToStdoutWithStatusZero(arguments: [String]) throws {
        let result = try WardrobeProcess.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("USAGE: wardrobe"))
        #expect(result.stdout.contains("OPTIONS:"))
        #expect(result.stderr.isEmpty)
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try WardrobeProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("wardrobe "))
    }

    @Test(arguments: [[], ["no-such-command"], ["--no-such-option"]])
    func wrongUsageExits64WithUsageOnStderr(arguments: [String]) throws {
        let result = try WardrobeProcess.run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.contains("Usage: wardrobe"))
        #expect(result.stderr.contains("See 'wardrobe --help' for more information."))
    }

    /// Every command, found by walking SUBCOMMANDS from the root: its help
    /// prints. The binary checks a command's declarations (no name twice, every
    /// name a --long-name) before it parses or prints help for it, and stops
    /// if they are wrong, so this checks every declaration in the tool.
    @Test func everyCommandsDeclarationsAreSoundAndPrintHelp() throws {
        var pending: [[String]] = [[]]
        var seen = 0
        while let path = pending.popLast() {
            let result = try WardrobeProcess.run(path + ["--help"])
            #expect(result.status == 0, "wardrobe \(path.joined(separator: " ")) --help: \(result.stderr)")
            #expect(result.stdout.contains("OPTIONS:\n"))
            seen += 1
            pending += HelpSections.subcommands(result.stdout).map { path + [$0] }
        }
        #expect(seen >= 14)
    }

    /// Every option that takes one value, of every command (found as above, from help), given
    /// twice is wrong usage naming it, before anything is opened or made: the last one used to
    /// win without a word, so `--db a ... --db b` wrote to a catalogue other than the one seen.
    @Test func everySingleValuedOptionGivenTwiceIsWrongUsage() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        var pending: [[String]] = [[]]
        var tried = 0
        while let path = pending.popLast() {
            let help = try WardrobeProcess.run(path + ["--help"]).stdout
            pending += HelpSections.subcommands(help).map { path + [$0] }
            for line in HelpSections.options(help) {
                // "  --db <PATH>   The catalogue..." or "  -n, --limit <N> ...": a value in angle brackets.
                let words = line.split(separator: " ").map(String.init)
                guard let index = words.firstIndex(where: { $0.hasPrefix("--") }), index + 1 < words.count,
                      words[index + 1].hasPrefix("<") else { continue }
                let option = words[index]
                // Timed: taken the old way, `model train --out x` trained and `serve` served.
                let result = try TimedProcess.run(path + [option, "x", option, "x"], seconds: 10,
                                                  currentDirectory: folder.root)
                #expect(result.status == 64, "wardrobe \(path.joined(separator: " ")) \(option) twice: \(result.stderr)")
                #expect(result.stderr.hasPrefix("error: \(option) given twice\n"), "\(path) \(option): \(result.stderr)")
                tried += 1
            }
        }
        #expect(tried >= 40, "\(tried) options tried")
        // Before the command as well as after it, as git's global options may be.
        let split = try WardrobeProcess.run(["--db", "a.sqlite", "import", "--db", "b.sqlite", "."],
                                            currentDirectory: folder.root)
        #expect(split.status == 64 && split.stderr.hasPrefix("error: --db given twice\n"), "\(split.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.root.path) == [], "nothing made")
    }
}
