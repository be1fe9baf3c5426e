import Foundation
import Testing

/// `model train` in a log (stderr not a terminal): its header speaks to the person who
/// runs it, and the first epoch is not silence. The log used to print nothing from its
/// header until the first epoch's end (68 s on the full data set), and the header read
/// `20000 examples per epoch, 5016 held out`.
@Suite struct TrainingLogTests {
    @Test func theLogSaysWhatTrainingDoesAndShowsProgressWithinTheFirstEpoch() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let train = try WardrobeProcess.run(["model", "train", "--limit", "8000", "--epochs", "1", "--threads", "1",
                                             "--out", folder.path("quick.aimodel")], environment: ["COLUMNS": "40"])
        #expect(train.status == 0, "\(train.stderr)")
        let lines = train.stderr.split(separator: "\n").map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("training: ") }, "\(train.stderr)")
        #expect(header.contains("1 pass (epoch) over 8,000 examples;"), "\(header)")
        #expect(header.contains("Fashion-MNIST images are kept aside, never learned from, to check it after each epoch"),
                "\(header)")
        #expect(!train.stderr.contains("examples per epoch"), "\(train.stderr)")
        // Filled to a terminal's width there, one line each here, whatever COLUMNS says.
        let header2 = try #require(lines.firstIndex(of: header).map { lines[$0 + 1] }, "\(train.stderr)")
        #expect(header2.hasPrefix("  (a network of ") && header2.hasSuffix(", 1 thread)"), "\(header2)")

        // Lines within the epoch, before the epoch's own line, each with its share and time left.
        let epochLine = try #require(lines.firstIndex { $0.hasPrefix("epoch  1/1  loss") }, "\(train.stderr)")
        let within = lines[..<epochLine].filter { $0.hasPrefix("epoch 1/1: ") }
        #expect(within.count >= 2 && within.count <= 3, "\(train.stderr)")
        #expect(within.allSatisfy { $0.contains("% (") && $0.contains(" steps), ") && $0.contains("left in this epoch") },
                "\(within)")
    }
}
