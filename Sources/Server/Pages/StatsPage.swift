import Foundation
import Wardrobe

/// `/stats`: per label the number of images, the model's mean confidence
/// and, where a person gave labels, how often the model agrees with them;
/// the counts drawn as an SVG bar chart made here, on the server. The
/// counts walk every image, so each worker's connection keeps them until
/// the next commit to the catalogue (from any process).
struct StatsPage {
    let site: WardrobeSite

    func response() throws -> HTTPResponse {
        let summary = try site.catalogue.summary()
        let agreement = Dictionary(summary.agreement.map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = summary.labels.map { label -> HTML in
            let agreed: String = agreement[label.label].map { figure in
                figure.share.map { "\(GalleryPage.percent($0)) of \(figure.labelled)" } ?? "none not learned from"
            } ?? "–"
            let link = Link("/", [("label", label.label)])
            return """
                <tr><td class="name"><a href="\(link)">\(text: label.label)</a></td><td>\(label.count)</td>\
                <td>\(text: label.meanConfidence.map(GalleryPage.percent) ?? "–")</td><td>\(text: agreed)</td></tr>
                """
        }
        let content: HTML = """
            <h1>Stats</h1>
            <p>\(text: StatsPage.counted(summary.images, "image")), \(summary.classified) classified, \
            \(summary.corrected) labelled by a person (\(text: StatsPage.counted(summary.corrections, "act"))), \
            \(text: StatsPage.counted(summary.paths, "path")) (\(summary.missingPaths) missing), \(text: StatsPage.counted(summary.runs, "run")).</p>
            \(StatsPage.chart(summary.labels.map { ($0.label, $0.count, $0.meanConfidence) }))
            \(StatsPage.agreement(summary.overallAgreement))
            <div class="table-wrap"><table><thead><tr><th>Label</th><th>Images</th><th>Mean confidence</th>\
            <th>Model agrees (labels it did not learn from)</th></tr></thead><tbody>\(rows)</tbody></table></div>
            """
        return .html(PageLayout.page(title: "Stats", section: .stats, readOnly: site.readOnly, content))
    }

    /// The model's agreement over every label a person gave, as the CLI says it; nothing when no one labelled.
    static func agreement(_ figure: AgreementFigure) -> HTML {
        guard let sentence = figure.sentence else { return "" }
        return "<p class=\"agreement\">The model \(text: sentence).</p>"
    }

    /// "1 run", "2 runs".
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// Horizontal bars, one per label, scaled to the largest count; the
    /// viewBox lets it shrink to any width.
    static func chart(_ bars: [(label: String, count: Int, meanConfidence: Double?)]) -> HTML {
        let rowHeight = 26, labelWidth = 90, barWidth = 230, width = 440
        let largest = max(1, bars.map(\.count).max() ?? 1)
        let height = bars.count * rowHeight + 10
        let rows = bars.enumerated().map { index, bar -> HTML in
            let y = 5 + index * rowHeight
            let length = Int((Double(bar.count) / Double(largest) * Double(barWidth)).rounded())
            let note = bar.meanConfidence.map { " · \(GalleryPage.percent($0)) sure" } ?? ""
            return """
                <text x="\(labelWidth - 6)" y="\(y + 16)" text-anchor="end">\(text: bar.label)</text>\
                <rect x="\(labelWidth)" y="\(y + 3)" width="\(max(length, 1))" height="\(rowHeight - 8)" fill="#3b7dd8"></rect>\
                <text x="\(labelWidth + max(length, 1) + 6)" y="\(y + 16)" fill="#333">\(bar.count)\(text: note)</text>
                """
        }
        return """
            <svg class="chart" viewBox="0 0 \(width) \(height)" width="100%" role="img" aria-label="Images per label">\
            <title>Images per label</title>\(rows)</svg>
            """
    }
}
