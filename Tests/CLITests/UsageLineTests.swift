import CommandLineKit
import Testing
import Training
@testable import wardrobe

/// No command writes its usage line: each is written from the command's declarations,
/// so it can no longer leave out an option the command needs or name a placeholder
/// the command does not declare.
@Suite struct UsageLineTests {
    /// Every command of the tree, with the words that lead to it.
    static func commands(_ command: any Command.Type, path: [String]) -> [(path: [String], command: any Command.Type)] {
        [(path, command)] + command.configuration.subcommands.flatMap { commands($0, path: path + [$0.configuration.name]) }
    }

    @Test func everyUsageLineSaysWhatItsCommandDeclares() {
        for (path, command) in Self.commands(RootCommand.self, path: []) {
            let declarations = CommandDeclarations(of: command)
            let name = (["wardrobe"] + path).joined(separator: " ")
            #expect(declarations.problems.isEmpty, "\(name): \(declarations.problems)")
            let line = HelpPrinter.usageLine(for: command, commandPath: path, root: RootCommand.self)
            guard command.configuration.subcommands.isEmpty else {
                #expect(line == name + " <subcommand>")
                continue
            }
            #expect(line.hasPrefix(name), "\(line)")
            let words = line.dropFirst(name.count).split(separator: " ").map { word in
                String(word.drop { "([".contains($0) }.reversed().drop { ")]".contains($0) }.reversed())
            }
            // Each word is declared: an option, its value's placeholder, an argument's
            // placeholder or one of its fixed words, or the `[options]` of what may be left out.
            let optionNames = Set(declarations.options.map(\.name))
            let valueNames = Set(declarations.options.compactMap(\.valueName))
            let placeholders = Set(declarations.arguments.flatMap { $0.name.split(separator: " ").map(String.init) })
            let choices = Set(declarations.arguments.flatMap { argument in
                (argument.choices ?? []).map { $0 + (argument.name.hasSuffix("...") ? "..." : "") }
            })
            for word in words where word != "|" {
                let known = word == "options" || optionNames.contains(word) || valueNames.contains(word)
                    || placeholders.contains(word) || word.split(separator: "|").allSatisfy { choices.contains(String($0)) }
                #expect(known, "\(line): '\(word)' is not declared")
            }
            // What the command needs is in it; what may be left out is in it or in `[options]`.
            for option in declarations.options where option.isRequired {
                #expect(line.contains(" \(option.name) \(option.valueName ?? "")"), "\(line) leaves out \(option.name)")
            }
            for argument in declarations.arguments where argument.help != nil {
                let shown = argument.choices.map { $0.joined(separator: "|") } ?? argument.name
                #expect(line.contains(shown), "\(line) leaves out \(argument.name)")
            }
            let inForms = Set(declarations.alternatives.flatMap { $0.forms.joined() })
            let optional = declarations.options.filter { !$0.isRequired && !inForms.contains($0.name) }
            #expect(words.contains("options") == !optional.isEmpty, "\(line)")
            for option in optional { #expect(!words.contains(option.name), "\(line): \(option.name) is in [options]") }
        }
    }

    /// The lines of the commands whose forms exclude each other, as a person reads them.
    @Test(arguments: [
        (["model", "train"], "wardrobe model train [options] [--from MODEL | --from-scratch] --out FILE"),
        (["model", "evaluate"], "wardrobe model evaluate [options] [--data DIR | --images DIR --map FILE]"),
        (["model", "use"], "wardrobe model use [options] (FILE | --bundled)"),
        (["label"], "wardrobe label [options] (LABEL IMAGE... | --clear IMAGE... | --confirm IMAGE...)"),
        (["classify"], "wardrobe classify [options] (FILE... | --sample)"),
        (["reclassify"], "wardrobe reclassify [options] [ID|HASH-PREFIX|PATH...]"),
        (["completions"], "wardrobe completions bash|zsh|fish"),
        (["manual"], "wardrobe manual"),
        (["copy"], "wardrobe copy [options] SOURCE DEST"),
    ])
    func usageLinesOfCommandsWithForms(path: [String], expected: String) {
        let command = ArgumentParser.resolve(path, root: RootCommand.self)
        #expect(HelpPrinter.usageLine(for: command, commandPath: path, root: RootCommand.self) == expected)
    }

    /// `--photo-augment` is one of its kinds, read as such, not a string checked twice.
    @Test func photoAugmentIsOneOfItsKinds() throws {
        let words = ["model", "train", "--corrections", "--photo-augment", "flip-shift", "--out", "x.aimodel"]
        guard case .run(let command, _) = try ArgumentParser.parse(words, root: RootCommand.self),
              let train = command as? ModelTrainCommand else {
            Issue.record("model train did not parse")
            return
        }
        #expect(train.photoAugment?.photoAugmentation == PhotoAugmentation.flipShift)
        #expect(throws: UsageError("unknown --photo-augment 'rotate'; use full, flip-shift or none",
                                   commandPath: ["model", "train"])) {
            try ArgumentParser.parse(["model", "train", "--corrections", "--photo-augment", "rotate", "--out", "x.aimodel"],
                                     root: RootCommand.self)
        }
    }
}
