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
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.contains("Usage: wardrobe"))
        #expect(result.stderr.contains("See 'wardrobe --help' for more information."))
    }
}
