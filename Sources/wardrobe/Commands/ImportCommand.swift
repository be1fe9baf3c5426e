import Foundation
import CommandLineKit
import Wardrobe
import Files

/// `wardrobe import PATH...`
struct ImportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "import",
        abstract: "Import photos: hash, thumbnail, prepare and classify every new image.",
        discussion: """
            Files and folders are walked recursively; images (\(ReadableFormats.names))
            are recognised by their content, whatever their names. Content already in the
            catalogue is recorded as another path of the same image, not classified again; a
            file whose size and modification time are unchanged since the last import is
            skipped without being read, and so is a file that failed before and has not
            changed (a known failure, not reported again). Known files under a folder walked
            that are gone are marked missing. Each batch is one transaction: interrupted
            (Ctrl-C, a kill, a power cut) and run again, the import finishes the rest without
            duplicating anything.

            Before anything is written, the catalogue is looked at for damage: its header
            against its size, its schema and the pages new rows go to, and a catalogue of up
            to 32 MB is read whole (SQLite's quick_check). A damaged catalogue is refused,
            unchanged, with the way to recover; 'wardrobe check' reads every page of any size.

            Exit status: 0 when every file was imported or skipped, 2 when some files failed anew
            (each is named on stderr with the reason and recorded in the catalogue), 1 when the
            import itself failed, 130 when interrupted, 64 for wrong usage.
            """)

    @Argument(name: "PATH...", help: "Image files or folders to import.", transform: ArgumentValues.inputPath)
    var paths: [String]
    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var model: ModelOptions
    @Option(name: "--prep", value: "RECIPE", help: "The prep recipe (default: the model's, else photo; see 'wardrobe prep --help').",
            transform: ArgumentValues.recipe)
    var prep: String?
    @OptionGroup var work: WorkOptions
    @Flag(name: "--hidden", help: "Also import hidden files and folders (names starting with a dot).")
    var hidden: Bool
    @Flag(name: "--dry-run", help: "Show what would be imported, change nothing.")
    var dryRun: Bool
    @Flag(name: "--watch", help: "After the import, keep watching the folders and import files as they arrive; Ctrl-C stops.")
    var watch: Bool
    @OptionGroup var output: OutputOptions

    func validate() throws(UsageError) {
        guard !paths.isEmpty else { throw UsageError("missing PATH to import") }
        // A typo is wrong usage, found before a catalogue, a run or a failure record is made.
        if let missing = PhotoFinder.missingRoots(paths).first {
            let (path, reason, siblings) = missing
            // A link whose target is gone is there under this name: no other name is meant.
            guard reason == PhotoFinder.noSuchFile else { throw UsageError("\(path): \(reason)") }
            let name = URL(fileURLWithPath: path).lastPathComponent
            let message = "no such file or folder: \(path)"
            // A name typed with é as one character, where the file (from macOS) has e and U+0301,
            // or the other way: Swift's == calls them equal, so no "did you mean" was found,
            // and a name there that looks the same was only 'no such file'.
            if let same = siblings.first(where: { $0 == name && !PathName.same($0, name) }) {
                let theirs = VisibleText.foreignCharacters(in: same).joined(separator: " ")
                let ours = VisibleText.foreignCharacters(in: name).joined(separator: " ")
                throw UsageError("\(message); one whose name looks the same is there, its accents written otherwise "
                                 + "(\(theirs) where this has \(ours)): name it as the shell lists it, or its folder")
            }
            guard let near = Suggestion.nearest(to: name, among: siblings) else { throw UsageError(message) }
            throw UsageError("\(message); did you mean '\(URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(near).path)'?")
        }
        if watch && dryRun { throw UsageError("--watch and --dry-run exclude each other") }
    }

    func run(_ console: Console) throws -> ExitStatus {
        let setup = console.setup
        // The model is loaded before the catalogue is made: a bad model leaves no empty catalogue behind.
        let catalogue = try setup.catalogue(explicit: self.catalogue.path)
        let classifier = try catalogue.classifier(explicit: model.path)
        let recipe = try catalogue.recipe(named: prep, for: classifier.model)
        let options = ImportOptions(paths: paths, jobs: work.jobs, recipe: recipe, includeHidden: hidden)
        let importer = try catalogue.importer(classifier: classifier)
        // Watching starts before the first look, so nothing arriving meanwhile is missed.
        let sync = watch ? try FolderSync(importer: importer, options: options) : nil
        let plan = try importer.plan(options)

        if dryRun {
            return try printDryRun(plan, console: console)
        }
        InterruptFlag.install()
        let progress = ProgressReporter(console: console, enabled: output.showsProgress)
        let report = try importer.run(options, plan: plan, progress: {
            progress.update(done: $0.done, total: $0.total, perSecond: $0.filesPerSecond,
                            secondsLeft: $0.secondsLeft, current: $0.currentFile)
        }, failure: { failure in
            progress.finish()
            console.error("\(failure.path): \(failure.reason)")
        })
        progress.finish()
        if output.json {
            try console.json(report, of: "the import's report")
        } else {
            printSummary(report, catalogue: catalogue.path, console: console)
        }
        if report.interrupted {
            console.info("interrupted: run the same command again to import the rest")
            return .interrupted
        }
        if let sync { return try keepWatching(sync, failedBefore: !report.failed.isEmpty, console: console) }
        return report.failed.isEmpty ? .success : .partialFailure
    }

    private func printDryRun(_ plan: Importer.Plan, console: Console) throws -> ExitStatus {
        if output.json {
            struct DryRun: Encodable {
                var wouldRead: [String]; var unchanged: Int; var wouldMarkMissing: [String]; var problems: [ImportReport.Failure]
            }
            try console.json(DryRun(wouldRead: plan.toRead.map(\.path), unchanged: plan.unchanged.count,
                                    wouldMarkMissing: plan.gone, problems: plan.problems), of: "the import's dry run")
        } else {
            for file in plan.toRead { console.output(Format.escaped(file.path)) }
            let known = plan.knownFailures.isEmpty ? "" : ", \(plan.knownFailures.count) known failures would be skipped"
            let notPhotos = plan.notPhotos.isEmpty ? "" : ", \(plan.notPhotos.count) not photos passed over by name"
            let special = plan.special == 0 ? "" : ", \(plan.special) \(Self.specialFiles) passed over"
            // The import marks the known paths gone under its folders missing: so says its dry run.
            let gone = plan.gone.isEmpty ? "" : ", \(plan.gone.count) known \(plan.gone.count == 1 ? "path" : "paths") gone would be marked missing"
            console.info("dry run: \(plan.toRead.count) files would be read, \(plan.unchanged.count) unchanged would be skipped"
                         + known + gone + notPhotos + special)
            for problem in plan.problems { console.error("\(problem.path): \(problem.reason)") }
        }
        return plan.problems.isEmpty ? .success : .partialFailure
    }

    static let specialFiles = "pipes, sockets or devices"

    /// The result in one line, the same with and without `--quiet`: how many files were
    /// imported (new images and new paths), how many the catalogue already held, how many
    /// failed (and known failures skipped), never "Imported 9 files" of every file found,
    /// the failed and the unchanged among them.
    static func resultLine(_ report: ImportReport, catalogue: String, duration: Bool) -> String {
        let files = report.filesFound == 1 ? "1 file" : "\(report.filesFound) files"
        let verb = report.interrupted ? "Interrupted: imported" : "Imported"
        // Files stored a second (new images and new paths): a folder moved and imported again
        // from its new place stores no image, and its rate is not one of images. The rate of
        // nothing new is no rate: it is left out.
        let rate = report.imported > 0 ? " (\(Format.rate(report.imagesPerSecond)) files/s)" : ""
        var parts = ["\(report.alreadyThere) already there", "\(report.failed.count) failed"]
        if report.knownFailures > 0 { parts.append("\(report.knownFailures) known \(report.knownFailures == 1 ? "failure" : "failures") skipped") }
        let time = duration ? " in \(Format.duration(report.seconds))" + rate : ""
        return "\(verb) \(report.imported) of \(files) into \(catalogue)\(time): " + parts.joined(separator: ", ")
    }

    private func printSummary(_ report: ImportReport, catalogue: String, console: Console) {
        guard !output.quiet else {
            // Errors were printed as they came; the result in one line.
            console.output(Self.resultLine(report, catalogue: catalogue, duration: false))
            return
        }
        var rows = [
            ["new images", String(report.newImages), ""],
            ["new paths", String(report.newPaths), "known content under another name or place"],
            ["unchanged", String(report.unchanged), "skipped without reading"],
        ]
        if report.alreadyStored > 0 {
            rows.append(["already stored", String(report.alreadyStored), "read again (its size or time changed), content and path as stored"])
        }
        rows += [
            ["read", String(report.filesRead), "files read this time"],
        ]
        if report.passedToOthers > 0 {
            rows.append(["others read", String(report.passedToOthers), "read by another import of these files at the same time"])
        }
        if report.knownFailures > 0 {
            rows.append(["known failures", String(report.knownFailures),
                         "skipped: unchanged since they failed (see 'wardrobe failures')"])
        }
        if report.replaced > 0 {
            rows.append(["replaced", String(report.replaced), "known files that hold another photo now; "
                         + "the photo each held keeps its history and labels, without this path"])
        }
        if report.missing > 0 {
            rows.append(["missing", String(report.missing), "known files gone from these folders, marked missing"])
        }
        if report.hidden > 0 {
            rows.append(["hidden", String(report.hidden), "hidden files and folders passed over (--hidden imports them)"])
        }
        if !report.notPhotos.isEmpty {
            let kinds = report.notPhotos.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            rows.append(["not photos", String(report.notPhotos.values.reduce(0, +)),
                         "passed over by name (" + kinds.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"])
        }
        if report.special > 0 {
            rows.append(["special files", String(report.special), Self.specialFiles + " passed over unopened"])
        }
        if !report.failed.isEmpty { rows.append(["failed", String(report.failed.count), ""]) }
        console.output(Self.resultLine(report, catalogue: catalogue, duration: true))
        console.outputLines(Format.table(rows, rightAligned: [1]).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        // The counts right-aligned among themselves, as the table's are: 10 above 1.
        let countWidth = report.failureReasons.map { String($0.1).count }.max() ?? 0
        for (reason, count) in report.failureReasons {
            let number = String(count)
            console.output("      " + String(repeating: " ", count: countWidth - number.count) + "\(number)  \(reason)")
        }
        if !report.labels.isEmpty {
            console.output("Labels of the new images:")
            let rows = ClothingClassifier.labels.compactMap { label in
                report.labels[label].map { ["  " + label, String($0)] }
            }
            console.outputLines(Format.table(rows, rightAligned: [1]))
        }
    }
}
