import CommandLineKit
import Testing

/// The parser's conventions, checked directly on a small tool.
@Suite struct ArgumentParserTests {
    func copy(_ words: [String]) throws -> CopyCommand {
        guard case .run(let command, let path) = try ArgumentParser.parse(["copy"] + words, root: Tool.self) else {
            Issue.record("expected a command to run")
            return CopyCommand()
        }
        #expect(path == ["copy"])
        return try #require(command as? CopyCommand)
    }

    func usageError(_ words: [String]) -> UsageError? {
        do {
            _ = try ArgumentParser.parse(words, root: Tool.self)
            return nil
        } catch {
            return error
        }
    }

    @Test func defaultsHoldWhenNothingIsGiven() throws {
        let command = try copy([])
        #expect(command.files.isEmpty)
        #expect(command.count == 1)
        #expect(command.destination == nil)
        #expect(command.tag.isEmpty)
        #expect(command.day == nil)
        #expect(!command.verbose && !command.dryRun && !command.output.json && !command.output.quiet)
    }

    @Test func valueAttachedWithEqualsIsTheSameAsTheNextWord() throws {
        let attached = try copy(["--count=3", "--to=/tmp/a=b"])
        let separate = try copy(["--count", "3", "--to", "/tmp/a=b"])
        #expect(attached.count == 3 && separate.count == 3)
        #expect(attached.destination == "/tmp/a=b" && separate.destination == "/tmp/a=b")
    }

    @Test func doubleDashEndsOptions() throws {
        let command = try copy(["-v", "--", "--count", "-q", "-"])
        #expect(command.verbose)
        #expect(command.count == 1)
        #expect(command.files == ["--count", "-q", "-"])
    }

    @Test func singleDashIsAPositional() throws {
        #expect(try copy(["a", "-", "b"]).files == ["a", "-", "b"])
    }

    @Test func shortFlagsAreRecognisedButNotBundled() throws {
        let command = try copy(["-v", "x"])
        #expect(command.verbose)
        #expect(try copy(["-q"]).output.quiet)
        #expect(usageError(["copy", "-vq"]) == UsageError("unknown option '-vq'", commandPath: ["copy"]))
    }

    @Test func namesAreExactlyAsDeclared() throws {
        #expect(try copy(["--dry-run"]).dryRun)
        #expect(usageError(["copy", "--dryRun"])?.message == "unknown option '--dryRun'; did you mean '--dry-run'?")
        #expect(usageError(["copy", "--destination", "x"])?.message == "unknown option '--destination'")
    }

    @Test func eachParseFillsAFreshValue() throws {
        let first = try copy(["--count", "3", "-v"])
        let second = try copy([])
        #expect(first.count == 3 && first.verbose)
        #expect(second.count == 1 && !second.verbose)
        // A value made outside the parser declares nothing and keeps its defaults.
        #expect(CopyCommand().count == 1)
    }

    /// An array option keeps every value; any other given twice is wrong usage, whatever the
    /// values and spellings: the last used to win without a word (`--db a --db b`).
    @Test func aRepeatedOptionIsWrongUsageUnlessItIsAnArray() throws {
        let command = try copy(["--tag", "a", "--count", "5", "--tag=b", "--tag", "a"])
        #expect(command.count == 5)
        #expect(command.tag == ["a", "b", "a"])
        #expect(usageError(["copy", "--count", "2", "--count", "5"])?.message == "--count given twice")
        #expect(usageError(["copy", "--count=2", "--count", "2"])?.message == "--count given twice")
        #expect(usageError(["copy", "--count", "abc", "--count", "4"])?.message == "--count given twice")
        #expect(usageError(["copy", "--to", "a", "--to=a"])?.message == "--to given twice")
        // A flag given twice says the same thing twice, and stays a flag.
        #expect(try copy(["-v", "--verbose"]).verbose)
    }

    @Test func negativeNumbersAreValues() throws {
        #expect(try copy(["--offset", "-5"]).offset == -5)
        #expect(try copy(["--offset=-100"]).offset == -100)
        // As a positional, a leading dash is an option.
        #expect(usageError(["copy", "-5"])?.message == "unknown option '-5'")
    }

    @Test(arguments: [
        (["copy", "--nope"], "unknown option '--nope'"),
        (["copy", "--nope=1"], "unknown option '--nope'"),
        (["copy", "-x"], "unknown option '-x'"),
        (["copy", "--count"], "--count needs a value (N)"),
        (["copy", "a", "--to"], "--to needs a value (DIR)"),
        (["copy", "--verbose=yes"], "--verbose takes no value"),
        (["copy", "--count", "abc"], "invalid value 'abc' for --count: not a whole number"),
        // Each says why: the notation, the size or the sign, where it said 'invalid value' alone.
        (["copy", "--count", "1e3"], "invalid value '1e3' for --count: not a whole number"),
        (["copy", "--count", "99999999999999999999"], "invalid value '99999999999999999999' for --count: above 9223372036854775807"),
        (["copy", "--offset", "-99999999999999999999"], "invalid value '-99999999999999999999' for --offset: below -9223372036854775808"),
        (["copy", "--share", "half"], "invalid value 'half' for --share: not a number"),
        (["copy", "--count", "11"], "--count must be between 1 and 10 (not 11)"),
        (["copy", "--count", "0"], "--count must be between 1 and 10 (not 0)"),
        (["copy", "--offset", "-101"], "--offset must be between -100 and 100 (not -101)"),
        (["copy", "--share", "1.5"], "--share must be between 0.0 and 1.0 (not 1.5)"),
        (["copy", "--day", "someday"], "unknown --day 'someday'; use one of: mon, tue, wed, thu, fri, sat, sun"),
        (["copy", "-v", "-q"], "--verbose and --quiet cannot be combined"),
        // An empty word is a slip (an unset shell variable), not "not given" nor a name.
        (["copy", "--to", ""], "--to needs a value (DIR), not an empty one"),
        (["copy", "--to="], "--to needs a value (DIR), not an empty one"),
        (["copy", "a", ""], "an argument is empty ('')"),
        (["copy", "--", ""], "an argument is empty ('')"),
    ])
    func wrongUsageIsAnErrorNamingTheOption(words: [String], message: String) {
        #expect(usageError(words) == UsageError(message, commandPath: ["copy"]))
    }

    @Test func rangesAcceptTheirBounds() throws {
        #expect(try copy(["--count", "10"]).count == 10)
        #expect(try copy(["--share", "0"]).share == 0)
        #expect(try copy(["--day", "sun"]).day == Weekday(index: 6))
    }

    /// A word that holds a character that is not ASCII where a command, option or choice has a
    /// letter or a dash names it: "unknown command 'cоpy'; did you mean 'copy'?" (a Cyrillic о)
    /// showed two words that look the same, and `—dry-run` (an em dash a word processor made of
    /// `--`) was taken for a file. A word that names no option is still an argument.
    @Test func aCharacterThatIsNotASCIIIsNamed() throws {
        #expect(usageError(["c\u{43E}py"])?.message
                == "unknown command 'c\u{43E}py'; did you mean 'copy'? ('c\u{43E}py' holds U+043E, which 'copy' does not)")
        #expect(usageError(["copy", "\u{2014}dry-run", "a"])?.message
                == "'\u{2014}dry-run' starts with U+2014, not '--'; did you mean '--dry-run'?")
        #expect(usageError(["copy", "\u{2013}-count=2"])?.message
                == "'\u{2013}-count=2' starts with U+2013, not '--'; did you mean '--count'?")
        #expect(try copy(["\u{2014}notes.txt"]).files == ["\u{2014}notes.txt"])
        #expect(try copy(["--", "\u{2014}dry-run"]).files == ["\u{2014}dry-run"])
    }

    /// Issue 17: a near miss names the nearest command or option; options a
    /// subcommand declares may come before it; `help` works at every level.
    @Test func nearMissesOptionsBeforeTheSubcommandAndHelpAtEveryLevel() throws {
        #expect(usageError(["cpy"])?.message == "unknown command 'cpy'; did you mean 'copy'?")
        #expect(usageError(["copy", "--cuont", "2"])?.message == "unknown option '--cuont'; did you mean '--count'?")
        #expect(try copy(["--count", "3", "-v"]).count == 3)
        guard case .run(let command, let path) = try ArgumentParser.parse(["--count", "4", "--to=x", "copy", "a"],
                                                                          root: Tool.self) else {
            Issue.record("not a run")
            return
        }
        let copied = try #require(command as? CopyCommand)
        #expect(path == ["copy"] && copied.count == 4 && copied.destination == "x")
        guard case .help(_, let helpPath) = try ArgumentParser.parse(["group", "help", "info"], root: Tool.self) else {
            Issue.record("not help")
            return
        }
        #expect(helpPath == ["group", "info"])
        #expect(Suggestion.nearest(to: "evalute", among: ["evaluate", "info"]) == "evaluate")
        #expect(Suggestion.nearest(to: "xyz", among: ["evaluate", "info"]) == nil)
    }

    @Test func subcommandsAndTheirErrorsCarryTheirPath() throws {
        #expect(usageError(["nope"]) == UsageError("unknown command 'nope'"))
        #expect(usageError(["group", "nope"]) == UsageError("unknown command 'nope'", commandPath: ["group"]))
        #expect(usageError([]) == UsageError("missing subcommand"))
        #expect(usageError(["group", "info"]) == UsageError("missing --out FILE", commandPath: ["group", "info"]))
        #expect(usageError(["group", "info", "a", "b", "--out", "x"])
                == UsageError("unexpected argument 'b'", commandPath: ["group", "info"]))
        guard case .run(let command, let path) = try ArgumentParser.parse(["group", "info", "a", "--out", "x"], root: Tool.self),
              let info = command as? InfoCommand else {
            Issue.record("expected group info to run")
            return
        }
        #expect(path == ["group", "info"])
        #expect(info.file == "a" && info.out == "x")
    }

    @Test(arguments: [["copy", "--help"], ["copy", "-h"], ["help", "copy"], ["copy", "a", "--count", "99", "-h"]])
    func helpIsAskedTheSameWayEverywhere(words: [String]) throws {
        guard case .help(let command, let path) = try ArgumentParser.parse(words, root: Tool.self) else {
            Issue.record("expected help")
            return
        }
        #expect(command is CopyCommand.Type)
        #expect(path == ["copy"])
    }

    @Test func aGroupNamedAlonePrintsItsHelp() throws {
        guard case .help(let command, let path) = try ArgumentParser.parse(["group"], root: Tool.self) else {
            Issue.record("expected help")
            return
        }
        #expect(command is GroupCommand.Type)
        #expect(path == ["group"])
    }

    /// A subcommand's option with no command after it is said to be one, where it was an
    /// unknown option; the tool's own options are read as before.
    @Test func anOptionOfACommandWithNoCommandIsSaidToBeOne() throws {
        #expect(usageError(["--count", "4"])?.message
                == "--count is an option of a command; name the command, before or after it (tool COMMAND --count ...)")
        #expect(usageError(["--to=x"])?.message.hasPrefix("--to is an option of a command") == true)
        #expect(usageError(["group", "--out", "x"])?.message.hasPrefix("--out is an option of a command") == true)
        #expect(usageError(["--nope"])?.message.hasPrefix("unknown option '--nope'") == true)
        guard case .run(let command, _) = try ArgumentParser.parse(["--version"], root: Tool.self) else {
            Issue.record("not a run")
            return
        }
        #expect((command as? Tool)?.version == true)
    }

    @Test func anOptionBeforeHelpIsStillChecked() {
        #expect(usageError(["copy", "--nope", "--help"])?.message == "unknown option '--nope'")
    }
}
