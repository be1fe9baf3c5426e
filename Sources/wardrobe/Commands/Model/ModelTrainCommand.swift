import Foundation
import Imaging
import Training
import Wardrobe

/// `wardrobe model train`: train the clothing classifier on Fashion-MNIST and
/// labelled photos; the use case is Wardrobe's ModelTraining.
struct ModelTrainCommand: Command {
    static let spec = CommandSpec(
        name: "train",
        abstract: "Train a clothing classifier on Fashion-MNIST and labelled photos and write it as an .aimodel.",
        usage: "[--data DIR] [--photos DIR --map FILE [--prep NAME]] [--from MODEL] [--epochs N] [--seed S] --out FILE",
        discussion: """
            Trains the bundled architecture (two blocks of 3x3 convolutions with batch norm,
            then a dense head) on the Fashion-MNIST training set, holding 5,000 images out for
            validation, and reports the test accuracy. With --photos and --map it also learns from
            folders of labelled photos (the map format of `model evaluate --images`; a folder with
            several accepted labels teaches that any of them is right), each prepared exactly as
            `import` prepares it; about a tenth of them, chosen by file hash, are held out,
            reported every epoch and used to calibrate the confidence (a temperature folded into
            the last layer). --from fine-tunes an existing model with a short schedule.
            Progress goes to stderr. The same options on the same machine write the same weights.
            `make model` shows how the bundled model is made.
            """,
        options: [
            .value("--data", "DIR", "Fashion-MNIST's .gz files (default: \(FashionMNIST.defaultDirectory))."),
            .value("--photos", "DIR", "Also learn from labelled photos: one subfolder per kind (see --map)."),
            .value("--map", "FILE", "With --photos: 'folder: Label, Label' per line, 'folder: none' to leave one out."),
            .value("--prep", "NAME", "With --photos: the prep recipe the model is trained for (default: \(PrepRecipes.default.name))."),
            .value("--photo-share", "X", "With --photos: the share of each epoch's examples that are photos (default: 0.25)."),
            .value("--photo-limit", "N", "With --photos: learn from only the first N training photos (in hash order)."),
            .value("--photo-augment", "KIND", "With --photos: full (default), flip-shift or none."),
            .flag("--no-calibrate", "Do not fit a temperature on the held-out photos."),
            .value("--from", "MODEL", "Fine-tune this model (same architecture) instead of starting afresh."),
            .value("--epochs", "N", "Passes over the training examples (default: 15; 4 with --from)."),
            .value("--learning-rate", "X", "Peak learning rate (default: 0.05; 0.01 with --from)."),
            .value("--fashion", "N", "Use only N Fashion-MNIST training images (default: all; 15000 with --from)."),
            .value("--seed", "S", "Seed of every random choice (default: 1)."),
            .value("--out", "FILE", "Where to write the model."),
            .value("--limit", "N", "Quick trial: train on N images, validate and test on at most N each."),
            .value("--threads", "N", "Threads sharing each batch (default: 2; part of what makes a run reproducible)."),
        ])

    let data: String
    let output: URL
    let training: ModelTraining

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.allowPositionals()
        guard let out = arguments.value("--out") else { throw arguments.usageError("missing --out FILE") }
        let parent = arguments.value("--from")
        var configuration = parent == nil ? TrainingConfiguration() : TrainingConfiguration.fineTuning()
        if let epochs = try arguments.value("--epochs", as: Int.self, in: 1...1000) { configuration.epochs = epochs }
        if let seed = try arguments.value("--seed", as: UInt64.self) { configuration.seed = seed }
        if let rate = try arguments.value("--learning-rate", as: Float.self, in: 1e-6...1) { configuration.peakLearningRate = rate }
        if let fashion = try arguments.value("--fashion", as: Int.self, in: 0...60_000) { configuration.trainingLimit = fashion }
        if let limit = try arguments.value("--limit", as: Int.self, in: 1...60_000) {
            configuration.trainingLimit = limit
            configuration.validationCount = min(configuration.validationCount, limit)
            configuration.testLimit = limit
            configuration.batchSize = min(configuration.batchSize, max(limit, configuration.threads))
        }
        if let threads = try arguments.value("--threads", as: Int.self, in: 1...64) { configuration.threads = threads }
        if let share = try arguments.value("--photo-share", as: Double.self, in: 0...0.95) { configuration.photoShare = share }
        switch arguments.value("--photo-augment") {
        case nil, "full": break
        case "flip-shift": configuration.photoAugmentation = .flipShift
        case "none": configuration.photoAugmentation = .none
        case let other?: throw arguments.usageError("--photo-augment is full, flip-shift or none, not '\(other)'")
        }
        var photos: ModelTraining.Photos?
        if let directory = arguments.value("--photos") {
            guard let map = arguments.value("--map") else { throw arguments.usageError("--photos needs --map FILE") }
            do {
                photos = ModelTraining.Photos(directory: directory, map: try PhotoLabelMap(contentsOf: map),
                                              limit: try arguments.value("--photo-limit", as: Int.self, in: 0...1_000_000))
            } catch let error as UsageError {
                throw error
            } catch {
                throw arguments.usageError("\(error)")
            }
        } else {
            for name in ["--map", "--prep", "--photo-share", "--photo-limit", "--photo-augment"] where arguments.value(name) != nil {
                throw arguments.usageError("\(name) needs --photos")
            }
        }
        let recipe: any PrepRecipe
        if let name = arguments.value("--prep") {
            do throws(ImagingError) {
                recipe = try PrepRecipes.named(name)
            } catch {
                throw arguments.usageError(error.reason)
            }
        } else {
            recipe = PrepRecipes.default
        }
        var training = ModelTraining(fashionDirectory: arguments.value("--data") ?? FashionMNIST.defaultDirectory,
                                     photos: photos, recipe: recipe, parentPath: parent, configuration: configuration)
        training.calibrate = !arguments.flag("--no-calibrate")
        self.data = training.fashionDirectory
        self.output = URL(fileURLWithPath: out)
        self.training = training
    }

    func run(_ console: Console) throws -> ExitStatus {
        let printer = TrainingPrinter(console: console, configuration: training.configuration)
        let outcome = try training.run { event in printer.show(event) }
        try outcome.model.write(to: output)
        var summary = "wrote \(output.path): \(outcome.result.network.parameterCount) parameters, test accuracy "
            + String(format: "%.4f", outcome.result.testAccuracy)
        if let photos = outcome.result.photoValidationAccuracy {
            summary += String(format: ", held-out photo accuracy %.4f", photos)
        }
        console.output(summary)
        return .success
    }
}
