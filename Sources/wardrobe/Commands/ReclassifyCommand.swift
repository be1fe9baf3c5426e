import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe reclassify [ID|HASH-PREFIX|PATH...]`
struct ReclassifyCommand: Command {
    static let configuration = CommandConfiguration(
        name: "reclassify",
        abstract: "Classify stored images again with another model or prep recipe, and show what changed.",
        discussion: """
            Works from the thumbnails stored at import (longest side 256 pixels; JPEG, or
            lossless PNG for images of at most 64 pixels such as Fashion-MNIST's), so the
            original files are not needed. Import classifies the thumbnail as stored, so with
            the same model and recipe a re-run gives back the stored label (measured: every
            one of 2,000 Fashion-MNIST images and 341 real photos). Against the full-size
            image, a JPEG thumbnail changes the photo recipe's label for about 9% of real
            photos, for the better about as often as for the worse (accuracy moves within
            noise); small images are stored losslessly and never differ (docs/command-line.md).

            Everything goes into one new run: each image gains a classification, nothing is
            overwritten (earlier labels stay in 'wardrobe history'), and a label a person
            gave still outranks the new one. The summary names how many images changed
            label, each transition with its count, and how many of the labels a person gave
            the model agrees with, counting only labels it did not learn from (a model made by
            'model train --corrections' records the images it learned from; agreeing with
            those says nothing). --changes names every image whose label changes (id, path,
            old -> new, confidence), leaving out, counted, those a person labelled: their label
            stays theirs, and only the model's changes (in history). With --dry-run, what
            adopting the model would change, to look through before 'wardrobe model use'
            ('wardrobe serve --candidate MODEL' shows them as a gallery). Without
            --model the default model is used ($WARDROBE_MODEL, else the catalogue's model
            chosen by 'wardrobe model use', else the bundled one); without --prep, the recipe
            the model records, else photo.
            A model used for the first time is registered in the catalogue.

            Several reclassifications with the same model and recipe at once (on one machine,
            or on several machines sharing a PostgreSQL catalogue) split the images: each
            takes a lease on a few images at a time and classifies only those, so every
            image is classified once; the summary counts those done by others. One that is
            interrupted or killed loses only its leases: the others, or the same command run
            again, classify what it left, and not what it did (docs/storage.md).

            Exit status: 0 on success, 2 when some thumbnails could not be read (each named on
            stderr), 1 when the run failed or an image named is not in the catalogue, 130 when
            interrupted (what was committed stays), 64 for wrong usage.
            """)

    @Argument(name: "ID|HASH-PREFIX|PATH...", help: "Only these images (ids, SHA-256 prefixes or imported paths).",
              transform: ArgumentValues.image)
    var images: [ImageReference] = []
    @OptionGroup var catalogue: CatalogueOptions
    @OptionGroup var model: ModelOptions
    @Option(name: "--prep", value: "RECIPE", help: "The prep recipe (default: the one the model records, else photo).",
            transform: ArgumentValues.recipe)
    var prep: String?
    @Option(name: "--label", value: "LABEL",
            help: "Only images whose current label is LABEL.", transform: ArgumentValues.label)
    var label: Int?
    @Option(name: "--below", value: "P", help: "Only images whose current confidence is below P (\(ArgumentValues.confidenceHelp)).",
            transform: ArgumentValues.confidence)
    var below: Double?
    @Option(name: "--since", value: "DATE",
            help: "Only images first imported at or after DATE (\(DateArgument.accepted)).",
            transform: ArgumentValues.date)
    var since: Date?
    @OptionGroup var work: WorkOptions
    @Flag(name: "--dry-run", help: "Classify and show what would change, store nothing.")
    var dryRun: Bool
    @Flag(name: "--changes", help: "Also list each image whose label changes (not those a person labelled): id, path, old -> new, confidence.")
    var changes: Bool
    @OptionGroup var output: OutputOptions

    func run(_ console: Console) throws -> ExitStatus {
        let setup = console.setup
        let catalogue = try setup.openCatalogue(explicit: self.catalogue.path, mode: dryRun ? .readOnly : .readWrite)
        let request = ReclassifyRequest(images: images, label: label, confidenceBelow: below, importedSince: since,
                                        recipe: prep, jobs: work.jobs, dryRun: dryRun, listsChanges: changes)
        let classifier = try catalogue.classifier(explicit: model.path)
        let progress = ProgressReporter(console: console, enabled: output.showsProgress)
        let report = try catalogue.reclassify(request, classifier: classifier) {
            progress.update(done: $0.done, total: $0.total, perSecond: $0.imagesPerSecond,
                            secondsLeft: $0.secondsLeft, current: "")
        }
        progress.finish()
        for failure in report.failed {
            console.error("image \(failure.image): \(failure.reason)")
        }
        if output.json {
            try console.json(report, of: "the reclassification's report")
        } else if !output.quiet {
            printSummary(report, console: console)
        }
        if report.interrupted {
            console.info("interrupted: what was committed stays; the same command again classifies the rest, "
                         + "not the images this run did")
            return .interrupted
        }
        return report.failed.isEmpty ? .success : .partialFailure
    }

    private func printSummary(_ report: ReclassifyReport, console: Console) {
        guard report.selected > 0 else {
            console.output("No images match; nothing was re-run.")
            return
        }
        let verb = report.dryRun ? "Would re-run" : "Re-ran"
        console.output("\(verb) \(report.reclassified) of \(report.selected) images with \(report.model), "
                       + "recipe \(report.recipe)" + (report.run.map { " (run \($0))" } ?? " (dry run: nothing stored)")
                       + " in \(Format.duration(report.seconds)) (\(Format.rate(report.imagesPerSecond)) images/s)")
        let compared = report.reclassified - report.firstClassified
        var lines = [["changed label", "\(report.changed) of \(compared)" + Self.underPerson(report)]]
        if let share = report.sameLabelShare { lines.append(["kept label", Format.percent(share)]) }
        if report.firstClassified > 0 { lines.append(["first classification", String(report.firstClassified)]) }
        if report.doneElsewhere > 0 {
            lines.append(["done by others", "\(report.doneElsewhere) (by another process of this reclassification)"])
        }
        if let agreement = AgreementFigure(agreeing: report.agreesWithPerson, of: report.personLabelled,
                                           learnedFrom: report.learnedFrom).sentence {
            lines.append(["agreement", agreement])
        }
        if report.corrected > 0 {
            lines.append(["labelled by a person", "\(report.corrected) (their labels stay and still win)"])
        }
        if !report.failed.isEmpty { lines.append(["failed", String(report.failed.count)]) }
        console.outputLines(Format.table(lines.map { ["  " + $0[0], $0[1]] }, width: console.terminalColumns, filling: true))
        guard !report.transitions.isEmpty else { return }
        console.output("Transitions:")
        console.outputLines(Format.table(report.transitions.map { ["  \($0.from) -> \($0.to)", String($0.count)] },
                                    rightAligned: [1]))
        guard let changes = report.changes else { return }
        if !changes.isEmpty {
            console.output("Changed images:")
            let rows = [["  ID", "PATH", "BEFORE -> AFTER", "CONF"]] + changes.map {
                ["  \($0.image)", $0.path ?? "-", "\($0.from) -> \($0.to)", Format.percent($0.confidence)]
            }
            console.outputLines(Format.table(rows, rightAligned: [0, 3], width: console.terminalColumns, shrinking: 1))
        }
        if report.changedUnderPerson > 0 {
            console.output("Not listed: \(report.changedUnderPerson) a person labelled, whose label stays theirs.")
        }
    }

    /// The part of the changed count a person sees no change in: their label outranks the model's.
    private static func underPerson(_ report: ReclassifyReport) -> String {
        report.changedUnderPerson > 0 ? " (\(report.changedUnderPerson) a person labelled, whose label stays)" : ""
    }

}
