import Foundation
import Inference
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
        #expect(text.stdout.contains("parameters     468,010"), "grouped, as training prints it")
        #expect(text.stdout.contains("image float32 [N, 1, 28, 28]"))
    }

    /// A place the model cannot go is refused before training starts, not after the
    /// minutes it takes: a missing folder, a folder, a FIFO nobody reads.
    @Test(.enabled(if: dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func trainRefusesAnUnwritableOutBeforeTraining() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        try #require(mkfifo(folder.path("pipe"), 0o644) == 0)
        for (out, reason) in [(folder.path("missing/m.aimodel"), "the folder \(folder.path("missing")) does not exist"),
                              (folder.path(""), "is a directory"), (folder.path("pipe"), "a FIFO that nobody reads")] {
            let result = try TimedProcess.run(["model", "train", "--limit", "64", "--epochs", "1", "--out", out], seconds: 60)
            #expect(result.status == 1, "\(out): \(result.stderr)")
            #expect(result.stderr == "error: model \(out): cannot write: \(reason)\n", "\(out)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("")) == ["pipe"], "nothing made")
    }

    /// `--out /dev/stdout` into a pipe: the model is the output (the summary goes to stderr),
    /// and /dev/stdout is written through, never replaced. Asked as /proc/self/fd/1, the
    /// same link, so that a regression fails here rather than replacing the system's link.
    @Test(.enabled(if: dataPresent, "Fashion-MNIST is not installed (make deps installs dataset-fashion-mnist)"))
    func trainWritesTheModelIntoAPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var received = Data()
        Thread.detachNewThread {
            received = reader.readDataToEndOfFile()
            done.signal()
        }
        do {
            let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            let result = try TimedProcess.run(["model", "train", "--limit", "64", "--epochs", "1", "--out", "/proc/self/fd/1"],
                                              seconds: 120, stdout: writer)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("wrote /proc/self/fd/1: 468,010 parameters"), "\(result.stderr)")
        }
        done.wait()
        let model = try ModelFile(bytes: [UInt8](received))
        #expect(model.description.functions["main"] != nil, "stdout holds the model and nothing else")
    }

    /// A model file cut short is refused for the same tensor in every process: the header's
    /// entries were looked at in dictionary order, which changes from one process to the next,
    /// so `model info` named conv3.weight, then fc1.weight, then conv4.weight for one file.
    @Test func aModelCutShortIsRefusedForTheSameTensorEveryTime() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let whole = try Data(contentsOf: URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/Models/clothing.aimodel"))
        try folder.write(Array(whole.prefix(100_000)), to: "cut.aimodel")
        var said = Set<String>()
        for _ in 0..<6 {
            let info = try WardrobeProcess.run(["model", "info", folder.path("cut.aimodel")])
            #expect(info.status == 1, "\(info.stderr)")
            said.insert(info.stderr)
        }
        #expect(said == ["error: model \(folder.path("cut.aimodel")): model file is truncated: tensor 'conv3.weight' "
                         + "ends at byte 114816 of data, file holds 93312\n"], "\(said)")
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

    /// A photo share of 0 draws no photo: the fine-tune learned none of the corrections and
    /// said 'the new model learned from every label you gave', recording them as learned.
    @Test func aPhotoShareOfZeroIsRefused() throws {
        for source in [["--corrections"], ["--photos", "/tmp", "--map", "/tmp/map"]] {
            let result = try WardrobeProcess.run(["model", "train", "--photo-share", "0", "--out", "/tmp/never.aimodel"] + source)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("error: --photo-share 0 would draw none of the photos or corrections it learns from"),
                    "stderr: \(result.stderr)")
        }
    }

    /// A number an option cannot take says why: '-1' for --seed (a UInt64) was 'invalid value'.
    @Test func aNegativeSeedSaysItMustBeZeroOrMore() throws {
        let result = try WardrobeProcess.run(["model", "train", "--seed", "-1", "--out", "/tmp/never.aimodel"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: invalid value '-1' for --seed: must be 0 or more\n"), "stderr: \(result.stderr)")
    }

    @Test func trainWithoutOutIsAUsageError() throws {
        let result = try WardrobeProcess.run(["model", "train"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--out"))
    }

    /// Every command that reads a model file refuses a broken one with one line naming the
    /// file and the reason, and writes nothing to stdout.
    @Test(arguments: [
        ["model", "info", "MODEL"], ["model", "info", "--model", "MODEL"], ["model", "evaluate", "--model", "MODEL"],
        ["model", "use", "MODEL"], ["import", "--model", "MODEL", "IMAGE"], ["prep", "--model", "MODEL", "IMAGE"],
        ["reclassify", "--model", "MODEL"], ["model", "train", "--from", "MODEL", "--out", "OUT"],
    ])
    func aFileThatIsNotAModelIsNamedInTheError(_ template: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("model-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let junk = directory.appendingPathComponent("junk.aimodel").path
        try Data("not a model".utf8).write(to: URL(fileURLWithPath: junk))
        let image = FileManager.default.currentDirectoryPath + "/Fixtures/fashion-sample.png"
        let arguments = template.map { argument in
            switch argument {
            case "MODEL": junk
            case "IMAGE": image
            case "OUT": directory.appendingPathComponent("out.aimodel").path
            default: argument
            }
        }
        // A catalogue with one image, so that commands which need one get as far as the model.
        let environment = ["WARDROBE_DB": directory.appendingPathComponent("c.db").path]
        let imported = try WardrobeProcess.run(["import", "--quiet", image], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let result = try WardrobeProcess.run(arguments, environment: environment)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: model ") && lines[0].contains(junk),
                "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
