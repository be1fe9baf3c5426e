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
                == "tool group info [options] [FILE]")
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
