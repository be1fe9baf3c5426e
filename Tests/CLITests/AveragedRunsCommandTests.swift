import Foundation
import Testing

/// `wardrobe model train --runs N`: N fine-tuning runs from one model, their
/// weights averaged, said on stderr and recorded in the model file.
@Suite struct AveragedRunsCommandTests {
    static let parent = FileManager.default.currentDirectoryPath + "/Models/fashion-mnist-only.aimodel"

    @Test(.enabled(if: ModelCommandTests.dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func runsFromOneModelAreAveragedAndRecorded() throws {
        let model = FileManager.default.temporaryDirectory.appendingPathComponent("averaged-\(UUID().uuidString).aimodel").path
        defer { try? FileManager.default.removeItem(atPath: model) }
        let train = try WardrobeProcess.run(["model", "train", "--from", Self.parent, "--runs", "2", "--seed", "4",
                                             "--limit", "256", "--epochs", "1", "--out", model])
        #expect(train.status == 0, "stderr: \(train.stderr)")
        #expect(train.stderr.contains("run 1 of 2 (seed 4)") && train.stderr.contains("run 2 of 2 (seed 5)"), "\(train.stderr)")
        #expect(train.stderr.contains("seed 5, 2 threads"), "the second run's plan names its own seed: \(train.stderr)")
        #expect(train.stderr.contains("averaged 2 runs: val "), "\(train.stderr)")

        let info = try WardrobeProcess.run(["model", "info", "--json", model])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        let training = try #require(json["training"] as? [String: String])
        #expect(training["runs"] == "2 from the parent (seeds 4, 5), weights and batch-norm statistics averaged", "\(training)")
        #expect(training["run_accuracies"]?.contains("seed 5: test ") == true, "\(training)")
        #expect(training["seed"] == "4")
    }

    /// Only runs from one model can be averaged: without a model to start
    /// from, --runs is a usage error before any training.
    @Test func runsWithoutAModelToStartFromAreRefused() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString).aimodel").path
        for extra in [[String](), ["--corrections", "--from-scratch"]] {
            let result = try WardrobeProcess.run(["model", "train", "--runs", "2", "--out", out] + extra)
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.contains("--runs 2 needs a model to start from"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let one = try WardrobeProcess.run(["model", "train", "--runs", "0", "--out", out])
        #expect(one.status == 64, "\(one.stderr)")
    }
}
