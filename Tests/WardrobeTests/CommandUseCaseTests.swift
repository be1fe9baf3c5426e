import Catalogue
import Foundation
import Inference
import Testing
import Training
@testable import Wardrobe

/// The use-case logic that used to sit in command files: training limits,
/// the evaluation on the test set, and how a reclassification request is resolved.
@Suite struct CommandUseCaseTests {
    static let root = FileManager.default.currentDirectoryPath
    static let setup = WardrobeSetup(environment: [:], executable: URL(fileURLWithPath: root + "/.build/release/wardrobe"))

    @Test func trainingDefaultsAreTheTrainersDefaults() {
        let training = ModelTraining(dataDirectory: nil, epochs: nil, seed: nil, limit: nil, threads: nil)
        #expect(training.configuration == TrainingConfiguration())
        #expect(training.dataDirectory == FashionMNIST.defaultDirectory)
    }

    @Test func aLimitCapsEveryImageCountAndTheBatch() {
        let training = ModelTraining(dataDirectory: "/data", epochs: 2, seed: 7, limit: 100, threads: nil)
        let c = training.configuration
        #expect(training.dataDirectory == "/data")
        #expect(c.epochs == 2 && c.seed == 7)
        #expect(c.trainingLimit == 100 && c.validationCount == 100 && c.testLimit == 100)
        #expect(c.batchSize == 100)
        // A tiny limit makes a batch of that many images, shared by no more threads than images.
        let tiny = ModelTraining(dataDirectory: nil, epochs: nil, seed: nil, limit: 1, threads: nil).configuration
        #expect(tiny.batchSize == 1 && tiny.threads == 1)
        // A large one leaves the batch alone.
        #expect(ModelTraining(dataDirectory: nil, epochs: nil, seed: nil, limit: 60_000, threads: 4).configuration.batchSize
                == TrainingConfiguration().batchSize)
        #expect(ModelTraining(dataDirectory: nil, epochs: nil, seed: nil, limit: nil, threads: 4).configuration.threads == 4)
    }

    @Test func testSetEvaluationCountsWhatTheClassifierGotRight() throws {
        guard FileManager.default.fileExists(atPath: FashionMNIST.defaultDirectory) else {
            print("skipped: no Fashion-MNIST at \(FashionMNIST.defaultDirectory) (make deps installs it)")
            return
        }
        let classifier = try Self.setup.classifier(explicit: Self.root + "/Models/clothing.aimodel")
        let report = try TestSetEvaluation(classifier: classifier, dataDirectory: nil, limit: 300)
        #expect(report.images == 300)
        #expect(report.classes.map(\.images).reduce(0, +) == 300)
        #expect(report.confusion.map { $0.reduce(0, +) } == report.classes.map(\.images))
        #expect(report.correct == report.labels.indices.map { report.confusion[$0][$0] }.reduce(0, +))
        #expect(report.accuracy > 0.85)
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(!json.contains("seconds"))
    }

    @Test func aReclassifyRequestFollowsTheRecipeRuleAndResolvesImages() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-request-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalogue = try Catalogue(path: directory.appendingPathComponent("c.sqlite").path)
        let sample = Self.root + "/Fixtures/fashion-sample.png"
        let classifier = try Self.setup.classifier(explicit: Self.root + "/Models/clothing.aimodel")
        _ = try FileClassifier(classifier: classifier, recipe: try Self.setup.recipe(named: "fashion-mnist"))
            .classify([sample], top: 1, saveTo: catalogue) { Issue.record("\($0.path): \($0.reason)") }

        // The recipe rule: --prep, else the model's, else photo; never what the last run used.
        let latest = try ReclassifyRequest(jobs: 1).options(in: catalogue, setup: Self.setup)
        #expect(latest.recipe.name == "photo")
        #expect(latest.filter.images == nil)
        let named = try ReclassifyRequest(images: [try ImageReference(sample)], label: 9, confidenceBelow: 0.5,
                                          recipe: "photo", jobs: 3, dryRun: true).options(in: catalogue, setup: Self.setup)
        #expect(named.recipe.name == "photo")
        #expect(named.filter.images?.count == 1)
        #expect(named.filter.label == 9 && named.filter.confidenceBelow == 0.5)
        #expect(named.jobs == 3 && named.dryRun)
        // A model that records its recipe makes it the default; a named one still wins.
        var trainedForFashion = classifier.model
        trainedForFashion.training[TrainingMetadata.Key.recipe] = "fashion-mnist@1"
        let recorded = try ReclassifyRequest(jobs: 1).options(in: catalogue, setup: Self.setup, model: trainedForFashion)
        #expect(recorded.recipe.name == "fashion-mnist")
        let namedOverRecorded = try ReclassifyRequest(recipe: "photo", jobs: 1)
            .options(in: catalogue, setup: Self.setup, model: trainedForFashion)
        #expect(namedOverRecorded.recipe.name == "photo")
        #expect(throws: (any Error).self) {
            try ReclassifyRequest(images: [.id(999)], jobs: 1).options(in: catalogue, setup: Self.setup)
        }
    }

    @Test func anExportToAFileWritesEveryRowOrNamesTheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalogue = try Catalogue(path: directory.appendingPathComponent("c.sqlite").path)
        let classifier = try Self.setup.classifier(explicit: Self.root + "/Models/clothing.aimodel")
        _ = try FileClassifier(classifier: classifier, recipe: try Self.setup.recipe(named: BundledFiles.sampleRecipe))
            .classify([Self.root + "/Fixtures/fashion-sample.png"], top: 1, saveTo: catalogue) { _ in }
        let export = CatalogueExport(catalogue: catalogue)

        let file = directory.appendingPathComponent("out.csv").path
        #expect(try export.write(format: .csv, all: false, toFile: file) == 1)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1].contains("Ankle boot"))

        let unwritable = directory.appendingPathComponent("no/such/folder/out.csv").path
        let folder = directory.appendingPathComponent("no/such/folder").path
        #expect(throws: WardrobeError.invalidArgument("\(unwritable): cannot write the export there: the folder \(folder) does not exist")) {
            try export.write(format: .csv, all: false, toFile: unwritable)
        }
    }
}
