import Foundation

/// One body of examples a model learned from, as its metadata records it:
/// a name (a data set, a folder of photos, a catalogue) and how many examples
/// of each label it gave (examples with several accepted labels are counted
/// under all of them joined by " | ").
public struct DataSource: Sendable, Equatable, Codable {
    public var name: String
    public var examples: Int
    public var perLabel: [String: Int]

    public init(name: String, examples: Int, perLabel: [String: Int]) {
        self.name = name
        self.examples = examples
        self.perLabel = perLabel
    }

    /// Counts of `tensors` by accepted labels.
    public init(name: String, tensors: LabelledTensors, labels: [String] = FashionMNIST.labels) {
        var counts: [String: Int] = [:]
        for i in 0..<tensors.count {
            counts[tensors.acceptedLabels(i).map { labels[$0] }.joined(separator: " | "), default: 0] += 1
        }
        self.init(name: name, examples: tensors.count, perLabel: counts)
    }

    /// The metadata value: a JSON array of sources, keys sorted, so equal runs write equal bytes.
    public static func metadata(_ sources: [DataSource]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: (try? encoder.encode(sources)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// Reads the metadata value back; nil when absent or not understood.
    public static func parse(metadata text: String?) -> [DataSource]? {
        guard let text else { return nil }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode([DataSource].self, from: Data(text.utf8))
    }
}
