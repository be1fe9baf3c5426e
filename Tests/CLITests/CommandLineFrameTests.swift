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
            guard let section = result.stdout.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else { continue }
            for line in section.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("  See ") {
                pending.append(path + [String(line.split(separator: " ")[0])])
            }
        }
        #expect(seen >= 14)
    }
}
