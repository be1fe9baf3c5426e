import CommandLineKit
import Files
import Foundation
import Wardrobe

/// `wardrobe model train`: train the clothing classifier on Fashion-MNIST and
/// labelled photos; the use case is Wardrobe's ModelTraining.
struct ModelTrainCommand: Command {
    static let configuration = CommandConfiguration(
        name: "train",
        abstract: "Train a clothing classifier on Fashion-MNIST and labelled photos and write it as an .aimodel.",
        alternatives: [.atMostOneOf(["--from"], ["--from-scratch"])],
        discussion: """
            Trains the bundled architecture (two blocks of 3x3 convolutions with batch norm,
            then a dense head) on the Fashion-MNIST training set, holding 5,000 images out for
            validation, and reports the test accuracy. With --photos and --map it also learns from
            folders of labelled photos (the map format of `model evaluate --images`; a folder with
            several accepted labels teaches that any of them is right), each prepared exactly as
            `import` prepares it; about a tenth of them, chosen by file hash, are held out,
            reported every epoch and used to calibrate the confidence (a temperature folded into
            the last layer). --corrections learns from every image a person labelled or confirmed
            in the catalogue (--db, else $WARDROBE_DB, else the default one) through its stored
            thumbnail, so the original files may be gone; `none` labels are left out, and images
            are held out by hash as photos are. --from fine-tunes an existing model with a short
            schedule. With --corrections and no --from, the model the catalogue uses (the one
            'import' would use: $WARDROBE_MODEL, else the adopted one, else the bundled one) is
            fine-tuned, as corrections are made against it; --from-scratch trains afresh.
            Progress goes to stderr. The same options on the same machine write the same weights.
            `make model` shows how the bundled model is made.
            """)

    @Option(name: "--data", value: "DIR", help: "Fashion-MNIST's .gz files (default: \(ModelTraining.defaultDataDirectory)).",
            transform: ArgumentValues.inputPath)
    var data: String?
    @Option(name: "--photos", value: "DIR", help: "Also learn from labelled photos: one subfolder per kind (see --map).",
            transform: ArgumentValues.inputPath)
    var photos: String?
    @Option(name: "--map", value: "FILE", help: "With --photos: 'folder: Label, Label' per line, 'folder: none' to leave one out.",
            transform: ArgumentValues.inputPath)
    var map: String?
    @Flag(name: "--corrections", help: "Also learn from the images a person labelled or confirmed in the catalogue (see --db).")
    var corrections: Bool
    @OptionGroup var catalogue: CatalogueOptions
    @Option(name: "--prep", value: "RECIPE", help: "With --photos or --corrections: the prep recipe the model is trained for (default: photo).",
            transform: ArgumentValues.recipe)
    var prep: String?
    @Option(name: "--photo-share", value: "X", help: "With --photos or --corrections: the share of each epoch's examples that are photos (default: 0.25; 0.6 with --from).", in: 0...0.95)
    var photoShare: Double?
    @Option(name: "--photo-limit", value: "N", help: "With --photos: learn from only the first N training photos (in hash order).", in: 0...1_000_000)
    var photoLimit: Int?
    @Option(name: "--photo-augment", value: "KIND", help: "With --photos or --corrections: full (default), flip-shift or none.")
    var photoAugment: ModelTraining.Augmentation?
    @Option(name: "--photo-views", value: "N", help: "With --photos: prepare each photo N times, N-1 of them reframed and relit first (default: 1).", in: 1...16)
    var photoViews: Int?
    @Flag(name: "--no-calibrate", help: "Do not fit a temperature on the held-out photos.")
    var noCalibrate: Bool
    @Option(name: "--from", value: "MODEL", help: "Fine-tune this model (same architecture) instead of starting afresh (with --corrections, the default is the catalogue's model).",
            transform: ArgumentValues.modelPath)
    var from: String?
    @Flag(name: "--from-scratch", help: "With --corrections: train afresh rather than fine-tune the catalogue's model.")
    var fromScratch: Bool
    @Option(name: "--epochs", value: "N", help: "Passes over the training examples (default: \(ModelTraining.defaultEpochs); 4 with --from).", in: 1...1000)
    var epochs: Int?
    @Option(name: "--learning-rate", value: "X", help: "Peak learning rate (default: 0.05; 0.005 with --from).", in: 1e-6...1)
    var learningRate: Float?
    @Option(name: "--fashion", value: "N", help: "Use only N Fashion-MNIST training images (default: all; 8000 with --from).", in: 0...60_000)
    var fashion: Int?
    @Option(name: "--seed", value: "S", help: "Seed of every random choice (default: 1).")
    var seed: UInt64?
    @Option(name: "--out", value: "FILE", help: "Where to write the model.", transform: ArgumentValues.outputPath)
    var out: String
    @Option(name: "--name", value: "NAME", help: "The model's name (default: --out's file name without .aimodel).")
    var name: String?
    @Option(name: "--version", value: "V", help: "The model's version (default: 1.0).")
    var version: String?
    @Option(name: "--limit", value: "N", help: "Quick trial: train on N images, validate and test on at most N each.", in: 1...60_000)
    var limit: Int?
    @Option(name: "--threads", value: "N", help: "Threads sharing each batch (default: 2; part of what makes a run reproducible).", in: 1...64)
    var threads: Int?

    func validate() throws(UsageError) {
        if photos == nil {
            for (name, given) in [("--map", map != nil), ("--photo-limit", photoLimit != nil),
                                  ("--photo-views", photoViews != nil)] where given {
                throw UsageError("\(name) needs --photos")
            }
        } else if map == nil {
            throw UsageError("--photos needs --map FILE")
        }
        if photos == nil && !corrections {
            for (name, given) in [("--prep", prep != nil), ("--photo-share", photoShare != nil),
                                  ("--photo-augment", photoAugment != nil)] where given {
                throw UsageError("\(name) needs --photos or --corrections")
            }
        }
        // Photos drawn 0 times are learned from by no step, yet the model would record them as
        // learned (its agreement leaving them out for good, 'learned from every label you gave').
        if photoShare == 0 {
            throw UsageError("--photo-share 0 would draw none of the photos or corrections it learns from; give a share above 0")
        }
        if catalogue.path != nil && !corrections { throw UsageError("--db needs --corrections") }
        if fromScratch && from != nil { throw UsageError("--from and --from-scratch exclude each other") }
        if fromScratch && !corrections {
            throw UsageError("--from-scratch needs --corrections: without it, training starts afresh unless --from says otherwise")
        }
        if let limit, let threads, threads > limit {
            throw UsageError("--threads \(threads) is more than the \(limit) images of --limit \(limit): each thread needs an image of every batch")
        }
        for (option, value) in [("--name", name), ("--version", version)]
        where value.map({ $0.allSatisfy(\.isWhitespace) }) == true {
            throw UsageError("\(option) needs some text")
        }
        // Without --name, the name is --out's file name, which can be as long as a file name.
        let defaultName = URL(fileURLWithPath: out).deletingPathExtension().lastPathComponent
        let identities: [(option: String, value: String?)] = [(name == nil ? "--out's file name" : "--name", name ?? defaultName),
                                                             ("--version", version)]
        for (option, value) in identities {
            if let value, let problem = ModelIdentity.problem(withNameOrVersion: value) { throw UsageError("\(option) \(problem)") }
        }
    }

    func run(_ console: Console) throws -> ExitStatus {
        // A signal while the model is written leaves neither a part of it nor a changed old file.
        InterruptFlag.install()
        // The catalogue whose corrections are learned from, opened once (its model, its images).
        let corrections = self.corrections ? try console.setup.openCatalogue(explicit: catalogue.path, mode: .readOnly) : nil
        let parent = try parentModel(corrections, console: console)
        var training = ModelTraining(dataDirectory: data, epochs: epochs, seed: seed, limit: limit, threads: threads,
                                     parent: parent, learningRate: learningRate, fashionImages: fashion)
        if let photos, let map {
            training.photos = ModelTraining.Photos(directory: photos, map: try PhotoLabelMap(contentsOf: map), limit: photoLimit,
                                                     views: photoViews ?? 1)
        }
        training.correctionsCatalogue = corrections
        for warning in try corrections?.confirmationGaps().warnings ?? [] { console.warning(warning) }
        if photos != nil || corrections != nil { training.recipe = try console.setup.recipe(named: prep) }
        if let photoShare { training.configuration.photoShare = photoShare }
        if let photoAugment { training.configuration.photoAugmentation = photoAugment.photoAugmentation }
        training.calibrate = !noCalibrate
        training.bundledModel = try? console.setup.modelPath(explicit: nil)
        let output = URL(fileURLWithPath: out)
        training.modelName = name ?? output.deletingPathExtension().lastPathComponent
        if let version { training.modelVersion = version }
        // Opened first, so a place the model cannot go is refused before the training, not
        // after it. A file is let go again (and opened anew at the end), so no temporary file
        // sits beside it through a training of minutes; a stream (a pipe) stays open.
        // Nor may it replace what the training reads.
        var inputs = try corrections?.files ?? CatalogueLocation.files(of: console.setup.cataloguePath(explicit: catalogue.path))
            + [OutputFile.Input(path: training.dataDirectory, role: "in the Fashion-MNIST folder")]
        if let parent {
            inputs.append(OutputFile.Input(path: parent.path, role: "the model being fine-tuned"))
            inputs += ModelTraining.rehearsalInputs(ofParent: parent, bundledModel: training.bundledModel)
        }
        if let photos { inputs.append(OutputFile.Input(path: photos, role: "in the folder of training photos")) }
        if let map { inputs.append(OutputFile.Input(path: map, role: "the map of photo folders")) }
        var destination: OutputFile? = try ModelTraining.destination(out, sparing: inputs)
        if case .replaced = destination?.kind {
            destination = nil
            // Learning from photos writes their rehearsal beside the model: checked now too.
            if photos != nil { try ModelTraining.checkRehearsalDestination(besideModel: out, sparing: inputs) }
        }
        let printer = TrainingPrinter(console: console, configuration: training.configuration)
        let outcome = try training.run { event in printer.show(event) }
        let written = try destination ?? ModelTraining.destination(out, sparing: inputs)
        try ModelTraining.write(outcome.model, to: written)
        if let rehearsal = outcome.rehearsal, let file = outcome.rehearsalFile, case .replaced = written.kind {
            try ModelTraining.writeRehearsal(file, besideModel: out, sparing: inputs)
            console.info("wrote \(ModelTraining.rehearsalPath(besideModel: out)): the \(rehearsal.learned.count) photos it learned from "
                + "and \(rehearsal.heldOut.count) it held out, prepared, for its fine-tunes to rehearse")
        }
        var summary = "wrote \(output.path): \(Format.count(outcome.result.network.parameterCount)) parameters, test accuracy "
            + String(format: "%.4f", outcome.result.testAccuracy)
        if let photos = outcome.result.photoValidationAccuracy {
            summary += String(format: ", held-out photo accuracy %.4f", photos)
            if let parent = outcome.parentHeldOutAccuracy {
                let seen = outcome.parentRecipeDiffers.map { ", given them prepared with \(training.recipe.identity), not its own \($0)" } ?? ""
                summary += String(format: " (the parent's: %.4f", parent) + seen + ")"
            }
        }
        // Into a stream the model is the output; the summary must not join it.
        if destination != nil { console.info(summary) } else { console.output(summary) }
        if let corrections, let parent {
            printer.show(try corrections.compareFineTune(outcome, at: output.path, parent: parent, recipe: training.recipe))
        }
        return .success
    }

    /// `--from`'s model; with `--corrections` and no `--from`, the model the
    /// catalogue uses, said on stderr (a person's corrections are answers to
    /// that model, and starting afresh would throw away what it learned).
    private func parentModel(_ corrections: OpenCatalogue?, console: Console) throws -> ModelChoice? {
        if let from { return ModelChoice(source: .option, path: from) }
        guard let corrections, !fromScratch else { return nil }
        let choice = try corrections.modelChoice(explicit: nil)
        let which = switch choice.source {
        case .option: "the model of --model"
        case .environment: "the model of $WARDROBE_MODEL"
        case .catalogue: "the catalogue's model"
        case .bundled: "the bundled model"
        }
        console.info("fine-tuning \(which), \(choice.path); --from MODEL picks another, --from-scratch trains afresh")
        return choice
    }
}
