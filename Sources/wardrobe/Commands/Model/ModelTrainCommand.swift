import Foundation
import Training

/// `wardrobe model train`: train the clothing classifier on Fashion-MNIST.
struct ModelTrainCommand: Command {
    static let spec = CommandSpec(
        name: "train",
        abstract: "Train a clothing classifier on Fashion-MNIST and write it as an .aimodel.",
        usage: "[--data DIR] [--epochs N] [--seed S] --out FILE",
        discussion: """
            Trains the bundled architecture (two blocks of 3x3 convolutions with batch norm,
            then a dense head) on the Fashion-MNIST training set, holding 5,000 images out for
            validation, and reports the test accuracy. Progress goes to stderr. The same seed
            on the same machine writes the same file. `make model` runs
            `wardrobe model train --seed 1 --out Models/clothing.aimodel`.
            """,
        options: [
            .value("--data", "DIR", "Fashion-MNIST's .gz files (default: \(FashionMNIST.defaultDirectory))."),
            .value("--epochs", "N", "Passes over the training images (default: \(TrainingConfiguration().epochs))."),
            .value("--seed", "S", "Seed of every random choice (default: 1)."),
            .value("--out", "FILE", "Where to write the model."),
            .value("--limit", "N", "Quick trial: train on N images, validate and test on at most N each."),
            .value("--threads", "N", "Threads sharing each batch (default: 2; part of what makes a run reproducible)."),
        ])

    let data: String
    let output: URL
    let configuration: TrainingConfiguration

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.allowPositionals()
        guard let out = arguments.value("--out") else { throw arguments.usageError("missing --out FILE") }
        var configuration = TrainingConfiguration()
        if let epochs = try arguments.value("--epochs", as: Int.self, in: 1...1000) { configuration.epochs = epochs }
        if let seed = try arguments.value("--seed", as: UInt64.self) { configuration.seed = seed }
        if let limit = try arguments.value("--limit", as: Int.self, in: 1...60_000) {
            configuration.trainingLimit = limit
            configuration.validationCount = min(configuration.validationCount, limit)
            configuration.testLimit = limit
            configuration.batchSize = min(configuration.batchSize, max(limit, configuration.threads))
        }
        if let threads = try arguments.value("--threads", as: Int.self, in: 1...64) { configuration.threads = threads }
        self.data = arguments.value("--data") ?? FashionMNIST.defaultDirectory
        self.output = URL(fileURLWithPath: out)
        self.configuration = configuration
    }

    func run(_ console: Console) throws -> ExitStatus {
        let training = try FashionMNIST(split: .train, directory: data)
        let test = try FashionMNIST(split: .test, directory: data)
        let trainer = Trainer(configuration: configuration)
        let result = trainer.train(training: training, test: test) { event in
            report(event, console: console)
        }
        try result.modelFile().write(to: output)
        console.output("wrote \(output.path): \(result.network.parameterCount) parameters, test accuracy \(String(format: "%.4f", result.testAccuracy))")
        return .success
    }

    private func report(_ event: TrainingProgress, console: Console) {
        switch event {
        case .started(let architecture, let parameters, let trainingImages, let validationImages, let steps):
            console.info("training \(architecture)")
            console.info("\(parameters) parameters; \(trainingImages) training and \(validationImages) validation images; "
                + "\(configuration.epochs) epochs, \(steps) steps of \(configuration.batchSize), seed \(configuration.seed), "
                + "\(configuration.threads) threads")
        case .step(let epoch, let step, let steps, let loss):
            console.status("epoch \(epoch)/\(configuration.epochs) step \(step)/\(steps) loss \(String(format: "%.4f", loss))")
        case .epoch(let r):
            console.clearStatus()
            console.info(String(format: "epoch %2d/%d  loss %.4f  train %.4f  val %.4f  %4.0f img/s  lr %.4f",
                                r.epoch, r.epochs, r.loss, r.trainingAccuracy, r.validationAccuracy, r.imagesPerSecond,
                                r.learningRate) + "  elapsed \(duration(r.secondsElapsed))  left \(duration(r.secondsLeft))")
        case .finished(let accuracy, let seconds):
            console.info(String(format: "test accuracy %.4f", accuracy) + " (trained in \(duration(seconds)))")
        }
    }

    private func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? String(format: "%dm%02ds", s / 60, s % 60) : "\(s)s"
    }
}
