
/// Labels a fine-tune on a person's labels would learn only as wrong, or
/// only from corrections into them. People correct what the model got
/// wrong, so a label nobody confirmed has no example saying the model is
/// right when it says it, and a fine-tune unlearns it: 137 corrections away
/// from Shirt and none confirming it took Shirt from 0.88 to 0.41 on the
/// photos nobody labelled, where 70 confirmations beside them lifted those
/// photos overall instead (issue 42's catalogue). Read before training, from
/// each image's person label against the model's current label.
public struct ConfirmationGaps: Sendable, Equatable {
    /// Labels the person moved images away from, with no image they say has it.
    public var neverRight: [String] = []
    /// Labels the person moved images into, with no image where the model's own label
    /// of it was confirmed (the fine-tune learns to say it more, never when it was right).
    public var onlyCorrectedInto: [String] = []

    public var isEmpty: Bool { neverRight.isEmpty && onlyCorrectedInto.isEmpty }

    /// From (model label, person label, images) pairs (`Catalogue.personLabelPairs`).
    init(pairs: [(model: Int, person: Int, images: Int)]) {
        for label in ClothingClassifier.labels.indices {
            let confirmed = pairs.contains { $0.model == label && $0.person == label }
            let into = pairs.contains { $0.model != label && $0.person == label }
            let away = pairs.contains { $0.model == label && $0.person != label }
            guard !confirmed else { continue }
            if into {
                onlyCorrectedInto.append(ClothingClassifier.labels[label])
            } else if away {
                neverRight.append(ClothingClassifier.labels[label])
            }
        }
    }

    /// One line for each kind of gap, each saying what to do.
    public var warnings: [String] {
        let remedy = "confirm a few with serve's review (Enter) or label --confirm"
        var lines: [String] = []
        if !neverRight.isEmpty {
            lines.append("no example says \(Self.list(neverRight, "or")) is right (every label given moves away from "
                         + (neverRight.count == 1 ? "it" : "them") + "): \(remedy)")
        }
        if !onlyCorrectedInto.isEmpty {
            lines.append("\(Self.list(onlyCorrectedInto, "and")) \(onlyCorrectedInto.count == 1 ? "has" : "have") only corrections into "
                         + (onlyCorrectedInto.count == 1 ? "it" : "them") + ", no confirmation where the model was right: \(remedy)")
        }
        return lines
    }

    /// "Shirt", "Shirt or Coat", "Shirt, Dress or Coat".
    static func list(_ names: [String], _ conjunction: String) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }
}
