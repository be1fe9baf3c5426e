import Foundation
import Imaging
import Testing

/// `stats`' MEAN CONF beside a person's labels: it was the mean of the model's confidence in
/// its own label over every image with that effective label, so a label only a person gave
/// (`none`, or Coat where the model said Shirt) showed the model's confidence in another
/// label (`none 4 … 29.7%`). Now it is the model's confidence in the label itself, over the
/// images whose label is the model's, and the table says so.
@Suite struct StatsConfidenceTests {
    @Test func meanConfidenceIsTheModelsInTheLabelItself() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for index in 0..<4 {
            try folder.write(try PNGEncoder().encode(PhotoFolder.fashionBitmap(index)), to: "photos/\(index).png")
        }
        let db = folder.path("c.sqlite")
        _ = try WardrobeProcess.run(["import", "--db", db, "--prep", "fashion-mnist", folder.path("photos")])
        let before = try WardrobeProcess.run(["stats", "--db", db])
        #expect(!before.stdout.contains("MEAN CONF: "), "no note without a person's labels: \(before.stdout)")

        _ = try WardrobeProcess.run(["label", "--db", db, "none", "1", "2"])
        let stats = try WardrobeProcess.run(["stats", "--db", db])
        #expect(stats.status == 0, "\(stats.stderr)")
        let none = try #require(stats.stdout.split(separator: "\n").first { $0.hasPrefix("  none ") }, "\(stats.stdout)")
        #expect(none.split(separator: " ").map(String.init) == ["none", "2", "50.0%", "-"], "\(none)")
        #expect(stats.stdout.contains("\n  (MEAN CONF: the model's, over the images whose label is its own)\n"), "\(stats.stdout)")

        let json = try WardrobeProcess.run(["stats", "--db", db, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let labels = object?["labels"] as? [[String: Any]] ?? []
        let noneJSON = try #require(labels.first { $0["label"] as? String == "none" })
        #expect(noneJSON["mean_confidence"] == nil, "\(noneJSON)")
    }
}
