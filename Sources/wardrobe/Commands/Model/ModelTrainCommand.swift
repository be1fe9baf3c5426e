import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe model train`: train the clothing classifier on Fashion-MNIST.
struct ModelTrainCommand: Command {
    static let configuration = CommandConfiguration(
        name: "train",
        abstract: "Train a clothing classifier on Fashion-MNIST and write it as an .aimodel.",
        usage: "[--data DIR] [--epochs N] [--seed S] --out FILE",
        discussion: """
            Trains the bundled architecture (two blocks of 3x3 convolutions with batch norm,
            then a dense head) on the Fashion-MNIST training set, holding 5,000 images out for
            validation, and reports the test accuracy. Progress goes to stderr. The same seed
            on the same machine writes the same file. `make model` runs
            `wardrobe model train --seed 1 --out Models/clothing.aimodel`.
            """)

    @Option(name: "--data", value: "DIR",
            help: "Fashion-MNIST's .gz files (default: \(ModelTraining.defaultDataDirectory)).")
    var data: String?
    @Option(name: "--epochs", value: "N",
            help: "Passes over the training images (default: \(ModelTraining.defaultEpochs)).", in: 1...1000)
    var epochs: Int?
    @Option(name: "--seed", value: "S", help: "Seed of every random choice (default: 1).")
    var seed: UInt64?
    @Option(name: "--out", value: "FILE", help: "Where to write the model.")
    var out: String
    @Option(name: "--limit", value: "N",
            help: "Quick trial: train on N images, validate and test on at most N each.", in: 1...60_000)
    var limit: Int?
    @Option(name: "--threads", value: "N",
            help: "Threads sharing each batch (default: 2; part of what makes a run reproducible).", in: 1...64)
    var threads: Int?

    func run(_ console: Console) throws -> ExitStatus {
        let training = ModelTraining(dataDirectory: data, epochs: epochs, seed: seed, limit: limit, threads: threads)
        let output = URL(fileURLWithPath: out)
        let outcome = try training.run(writingTo: output) { event in
            report(event, configuration: training.configuration, console: console)
        }
        console.output("wrote \(output.path): \(outcome.parameters) parameters, test accuracy \(String(format: "%.4f", outcome.testAccuracy))")
        return .success
    }

    private func report(_ event: ModelTraining.Event, configuration: ModelTraining.Configuration, console: Console) {
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
