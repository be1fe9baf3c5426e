import CommandLineKit
import Foundation
import Testing
@testable import wardrobe

/// Help is filled to the terminal's width, else 80 columns, as swift-argument-parser fills
/// it: every line of it was written as one long line or wrapped by hand near 88 columns, so
/// on an 80-column terminal 22 lines of `wardrobe --help` and 30 of `model train --help`
/// broke at the edge, mid-word, and an option's help ran on under the option names.
@Suite struct HelpWidthTests {
    /// The lines a discussion keeps as written: its examples, indented.
    private static func examples(_ command: any Command.Type) -> Set<String> {
        Set(command.configuration.discussion.split(separator: "\n").filter { $0.first == " " }.map(String.init))
    }

    @Test(arguments: [80, 60]) func everyCommandsHelpFitsTheWidthAndKeepsEveryWord(width: Int) {
        for (path, command) in UsageLineTests.commands(RootCommand.self, path: []) {
            let help = HelpPrinter.help(for: command, commandPath: path, root: RootCommand.self, width: width)
            let examples = Self.examples(command)
            for line in help.split(separator: "\n") where !examples.contains(String(line)) {
                // A single word wider than the line (a long path in an example) may stand alone.
                let words = line.split(separator: " ")
                #expect(Format.columns(String(line)) <= width || words.count == 1,
                        "wardrobe \(path.joined(separator: " ")): \(line.count) columns: \(line)")
            }
            let configuration = command.configuration
            let written = (configuration.abstract + " " + configuration.discussion).split(whereSeparator: \.isWhitespace)
            let shown = help.components(separatedBy: "\nUSAGE: ")[0].dropFirst("OVERVIEW: ".count)
            #expect(shown.split(whereSeparator: \.isWhitespace) == written, "wardrobe \(path.joined(separator: " ")): a word lost or moved")
        }
    }

    @Test func anOptionsHelpContinuesUnderItsHelpNotUnderTheNames() throws {
        let help = HelpPrinter.help(for: ImportCommand.self, commandPath: ["import"], root: RootCommand.self)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let model = try #require(lines.firstIndex { $0.hasPrefix("  --model <FILE>   The model to use") }, "\(help)")
        #expect(lines[model + 1].hasPrefix(String(repeating: " ", count: 19)) && lines[model + 1].dropFirst(19).first != " ",
                "\(lines[model...model + 1].joined(separator: "\n"))")
    }

    /// Through the binary: piped, 80 columns; on a terminal, its width (COLUMNS here).
    @Test func helpTakesTheTerminalsWidth() throws {
        let piped = try WardrobeProcess.run(["model", "train", "--help"])
        #expect(piped.status == 0 && piped.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(piped.stdout)")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script gives a terminal")
        let lines = try WardrobeProcess.onTerminal("COLUMNS=50 NO_COLOR=1 '\(WardrobeProcess.executable.path)' model train --help")
        #expect(lines.count > piped.stdout.split(separator: "\n").count, "narrower, so longer")
        // A word wider than what the names leave (a path) stands alone on its line.
        for line in lines { #expect(line.count <= 50 || line.split(separator: " ").count == 1, "\(line.count): \(line)") }
    }
}
