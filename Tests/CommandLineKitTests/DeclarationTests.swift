import CommandLineKit
import Testing

/// What help prints is generated from the declarations, and the
/// declarations themselves are checked for mistakes.
@Suite struct DeclarationTests {
    @Test func helpIsGeneratedFromTheDeclarations() {
        let help = HelpPrinter.help(for: CopyCommand.self, commandPath: ["copy"], root: Tool.self)
        #expect(help == """
            OVERVIEW: Copy files.

            Copies each FILE.

            USAGE: tool copy [options] FILE...

            ARGUMENTS:
              FILE...  The files to copy.

            OPTIONS:
              --count <N>    How many copies.
              --offset <N>   Shift every number by N.
              --to <DIR>     Where the copies go.
              --tag <TAG>    A tag; give several.
              --day <DAY>    Only on DAY.
              --share <P>    A share between 0 and 1.
              -v, --verbose  Say what is copied.
              --dry-run      Show what would be copied.
              --json         Print JSON.
              -q, --quiet    Print less.
              -h, --help     Show help information.

            """)
    }

    @Test func groupHelpListsSubcommandsAndHidesNothingDeclared() {
        let help = HelpPrinter.help(for: GroupCommand.self, commandPath: ["group"], root: Tool.self)
        #expect(help == """
            OVERVIEW: Commands in a group.

            USAGE: tool group <subcommand>

            OPTIONS:
              -h, --help  Show help information.

            SUBCOMMANDS:
              info  Show one file.

              See 'tool group help <subcommand>' for detailed help.

            """)
        #expect(HelpPrinter.usageLine(for: InfoCommand.self, commandPath: ["group", "info"], root: Tool.self)
                == "tool group info --out FILE [FILE]")
    }

    @Test func declarationsListOptionsAndArgumentsInOrder() {
        let declarations = CommandDeclarations(of: CopyCommand.self)
        #expect(declarations.options.map(\.name) == ["--count", "--offset", "--to", "--tag", "--day", "--share",
                                                     "--verbose", "--dry-run", "--json", "--quiet"])
        #expect(declarations.options.filter(\.isFlag).map(\.name) == ["--verbose", "--dry-run", "--json", "--quiet"])
        #expect(declarations.options.first { $0.name == "--tag" }?.repeats == true)
        #expect(declarations.options.first { $0.name == "--quiet" }?.short == "q")
        #expect(declarations.arguments.map(\.name) == ["FILE..."])
        #expect(declarations.arguments.map(\.takesRest) == [true])
        #expect(declarations.problems.isEmpty)
    }

    /// The usage line is written from the declarations: what may be left out as
    /// `[options]`, the declared forms, the options needed, then the arguments.
    @Test func usageIsWrittenFromTheDeclarations() {
        #expect(CommandDeclarations(of: PackCommand.self).usage
                == "[options] (NAME | --all) [--level LEVEL | --store] --out DIR fast|small|best-size...")
        #expect(CommandDeclarations(of: CopyCommand.self).usage == "[options] FILE...")
        #expect(CommandDeclarations(of: StrayAlternativeCommand.self).usage == "(NAME FILE... | --sample | --help | FILE)")
        #expect(CommandDeclarations(of: PackCommand.self).problems.isEmpty)
        #expect(CommandDeclarations(of: StrayAlternativeCommand.self).problems == [
            "alternative '--sample' names no declared option or argument",
            "alternative '--help' names no declared option or argument",
            "alternative 'FILE' names no declared option or argument",
        ])
    }

    /// An `ArgumentChoice` reads its words whatever their case and refuses others, listing them.
    @Test func choicesAreReadFromTheirWords() throws {
        let words = ["--level", "BEST-size", "--order", "SMALL", "--out", "d", "archive", "fast", "small"]
        guard case .run(let command, _) = try ArgumentParser.parse(words, root: PackCommand.self),
              let pack = command as? PackCommand else {
            Issue.record("pack did not parse")
            return
        }
        #expect(pack.name == "archive")
        #expect(pack.level == .bestSize)
        #expect(pack.order == .small)
        #expect(pack.levels == [.fast, .small])
        let refused = { (words: [String]) -> String? in
            do {
                _ = try ArgumentParser.parse(words, root: PackCommand.self)
                return nil
            } catch let error as UsageError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        #expect(refused(["--out", "d", "--level", "best"]) == "unknown --level 'best'; use fast, small or best-size")
        #expect(refused(["--out", "d", "x", "slow"]) == "unknown LEVEL... 'slow'; use fast, small or best-size")
        #expect(refused(["--out", "d", "x", "smal"]) == "unknown LEVEL... 'smal'; did you mean 'small'? (use fast, small or best-size)")
        let options = CommandDeclarations(of: PackCommand.self).options
        #expect(options.first { $0.name == "--level" }?.choices == ["fast", "small", "best-size"])
        #expect(options.first { $0.name == "--out" }?.isRequired == true)
        #expect(options.first { $0.name == "--order" }?.isRequired == false)
    }

    @Test func mistakesInDeclarationsAreFound() {
        let problems = CommandDeclarations(of: FaultyArguments.self).problems
        #expect(problems == [
            "--json is declared twice",
            "'db' is not a long option name like --name",
            "-h is declared twice",
            "argument WORD... takes the rest of the words, so it must be the last",
        ])
    }
}
