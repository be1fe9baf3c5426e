internal import Catalogue
import Files
import Foundation
import Inference

/// `wardrobe model list`: the models a catalogue registered (each model
/// that classified in it, and each adopted), which one commands use now,
/// and how well each agrees with the labels people gave.
public struct ModelListing: Sendable, Encodable {
    public struct Entry: Sendable, Encodable {
        public var id: Int64
        public var name: String
        public var version: String
        public var sha256: String
        public var registeredAt: Date
        /// When the catalogue last adopted it (`model use`); nil if never.
        public var lastAdopted: Date?
        /// The model commands use without `--model`.
        public var inUse: Bool
        /// Images with a person's label (not `none`) that this model classified and did not
        /// learn from, and how many of its latest labels of them match the person's.
        public var labelledImages: Int
        public var agreeing: Int
        public var agreement: Double?
        /// Images with a person's label it classified and learned from: left out of the agreement.
        public var learnedFrom: Int

        public var figure: AgreementFigure { AgreementFigure(agreeing: agreeing, of: labelledImages, learnedFrom: learnedFrom) }

        enum CodingKeys: String, CodingKey {
            case id, name, version, sha256, agreeing, agreement
            case registeredAt = "registered_at", lastAdopted = "last_adopted", inUse = "in_use"
            case labelledImages = "labelled_images", learnedFrom = "learned_from"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(version, forKey: .version)
            try container.encode(sha256, forKey: .sha256)
            try container.encode(RowWriter.isoDate(registeredAt), forKey: .registeredAt)
            try container.encode(lastAdopted.map(RowWriter.isoDate), forKey: .lastAdopted)
            try container.encode(inUse, forKey: .inUse)
            try container.encode(labelledImages, forKey: .labelledImages)
            try container.encode(agreeing, forKey: .agreeing)
            try container.encode(agreement, forKey: .agreement)
            try container.encode(learnedFrom, forKey: .learnedFrom)
        }
    }

    public var catalogue: String
    public var models: [Entry]
    /// What commands use without `--model`, by the rule (`ModelChoice`).
    public var inUse: String
    public var inUseSource: String
    /// Whether the model in use is among `models` (a model is registered when it first classifies here or is adopted).
    public var inUseRegistered: Bool

    enum CodingKeys: String, CodingKey {
        case catalogue, models
        case inUse = "in_use", inUseSource = "in_use_source", inUseRegistered = "in_use_registered"
    }

    /// `choice`: the model commands use without `--model`.
    init(catalogue: any CatalogueStore, choice: ModelChoice) throws {
        self.catalogue = catalogue.path
        let bytes = try choice.bytes ?? ClothingClassifier.readModel(at: choice.path)
        let inUseHash = SHA256.digest(bytes)
        inUse = choice.path
        inUseSource = choice.source.rawValue
        models = try catalogue.modelStandings().map { standing in
            let model = standing.model
            return Entry(id: model.id.rawValue, name: model.name, version: model.version, sha256: model.sha256.hex,
                         registeredAt: model.registeredAt, lastAdopted: standing.lastAdopted,
                         inUse: model.sha256.bytes == inUseHash, labelledImages: standing.labelledImages,
                         agreeing: standing.agreeing, agreement: standing.agreement, learnedFrom: standing.learnedFrom)
        }
        inUseRegistered = models.contains { $0.inUse }
    }
}
