import Foundation
import Testing

/// `wardrobe model train` and `model info` end to end, on a quick trial run.
@Suite struct ModelCommandTests {
    static let dataPresent = FileManager.default.fileExists(atPath: "/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz")

    @Test(.enabled(if: dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func trainWritesAModelThatInfoDescribes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("model-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("trial.aimodel").path

        let train = try WardrobeProcess.run(["model", "train", "--limit", "256", "--epochs", "1", "--seed", "3", "--out", model])
        #expect(train.status == 0, "stderr: \(train.stderr)")
        #expect(train.stderr.contains("epoch  1/1"))
        #expect(train.stderr.contains("img/s"))
        #expect(train.stderr.split(separator: "\n").last?.hasPrefix("test accuracy ") == true)
        #expect(train.stdout.contains("wrote \(model)"))

        let info = try WardrobeProcess.run(["model", "info", "--json", model])
        #expect(info.status == 0, "stderr: \(info.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        #expect(json["parameters"] as? Int == 468_010)
        #expect(json["name"] as? String == "trial", "a model is named after its file unless --name says otherwise")
        #expect(json["version"] as? String == "1.0")
        #expect((json["labels"] as? [String])?.first == "T-shirt/top")
        let training = try #require(json["training"] as? [String: String])
        #expect(training["seed"] == "3")
        #expect(training["epochs"] == "1")
        #expect(training["test_accuracy"] != nil)

        let evaluate = try WardrobeProcess.run(["model", "evaluate", "--model", model, "--limit", "200", "--json"])
        #expect(evaluate.status == 0, "stderr: \(evaluate.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(evaluate.stdout.utf8)) as? [String: Any])
        #expect(report["images"] as? Int == 200)
        let confusion = try #require(report["confusion"] as? [[Int]])
        #expect(confusion.count == 10 && confusion.allSatisfy { $0.count == 10 })
        #expect(confusion.joined().reduce(0, +) == 200)
        #expect((report["classes"] as? [[String: Any]])?.count == 10)

        let text = try WardrobeProcess.run(["model", "info", model])
        #expect(text.stdout.contains("parameters     468010"))
        #expect(text.stdout.contains("image float32 [N, 1, 28, 28]"))
    }

    @Test func trainWithoutDataNamesThePackage() throws {
        let result = try WardrobeProcess.run(["model", "train", "--data", "/nonexistent", "--out", "/tmp/never.aimodel"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("dataset-fashion-mnist"))
        #expect(result.stderr.contains("--data DIR"))
    }

    @Test(.enabled(if: dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func trainNamesTheModelAsTold() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("model-name-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("trial.aimodel").path

        let train = try WardrobeProcess.run(["model", "train", "--limit", "32", "--epochs", "1", "--out", model,
                                              "--name", "my wardrobe", "--version", "2026-12"])
        #expect(train.status == 0, "stderr: \(train.stderr)")
        let info = try WardrobeProcess.run(["model", "info", "--json", model])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        #expect(json["name"] as? String == "my wardrobe")
        #expect(json["version"] as? String == "2026-12")

        for blank in ["--name", "--version"] {
            let refused = try WardrobeProcess.run(["model", "train", "--limit", "32", "--out", model, blank, " "])
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("\(blank) needs some text"), "stderr: \(refused.stderr)")
        }
    }

    @Test func trainWithoutOutIsAUsageError() throws {
        let result = try WardrobeProcess.run(["model", "train"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--out"))
    }

    @Test func infoOnAFileThatIsNotAModelFails() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("model-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let junk = directory.appendingPathComponent("junk.aimodel")
        try Data("not a model".utf8).write(to: junk)
        let result = try WardrobeProcess.run(["model", "info", junk.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stdout.isEmpty)
    }
}
