import Wardrobe

/// `/changes` (with `serve --candidate MODEL`): the images whose label a model
/// not yet adopted would change, as a gallery to look through before `model
/// use`, each card with its label before and after and the new confidence.
/// Worked out once when the server started, by a dry run of `reclassify`
/// (nothing stored), so it shows what adopting would have changed then.
struct ChangesPage {
    let site: WardrobeSite
    let report: ReclassifyReport

    func response() -> HTTPResponse {
        let changes = report.changes ?? []
        let compared = report.reclassified - report.firstClassified
        // As reclassify's summary counts them: such an image looks the same afterwards.
        let underPerson: HTML = report.changedUnderPerson > 0
            ? ": \(report.changedUnderPerson) of them a person labelled, so only the model's label changes and they are not shown"
            : ""
        let transitions = report.transitions.prefix(8).map { transition -> HTML in
            "<li>\(text: transition.from) → \(text: transition.to): \(transition.count)</li>"
        }
        let cards = changes.map { change -> HTML in
            let name = change.path.map(GalleryPage.fileName) ?? "image \(change.image)"
            return """
                <li class="card" data-id="\(change.image)"><a href="/image/\(change.image)">
                <img src="/thumb/\(text: change.sha256)" loading="lazy" width="150" height="150" alt="\(text: change.to): \(text: name)">
                <div class="caption"><span class="label">\(text: change.from) → \(text: change.to)</span>\
                <span class="muted">\(text: GalleryPage.percent(change.confidence))</span></div>
                <div class="caption muted path">\(text: name)</div></a></li>
                """
        }
        let gallery: HTML = changes.isEmpty ? "<p class=\"muted\">No label would change.</p>" : "<ul class=\"grid\">\(cards)</ul>"
        let agreement: HTML = AgreementFigure(agreeing: report.agreesWithPerson, of: report.personLabelled,
                                              learnedFrom: report.learnedFrom).sentence.map { "<p>It \(text: $0).</p>" } ?? ""
        let content: HTML = """
            <h1>What \(text: report.model) would change</h1>
            <p>\(report.changed) of \(compared) images would change label, with recipe \(text: report.recipe) \
            (worked out when serve started; nothing is stored until you adopt it with \
            <code>wardrobe model use</code> and run <code>wardrobe reclassify</code>). \
            A person's label stays whatever the model says\(underPerson).</p>
            \(agreement)
            <ul>\(transitions)</ul>
            \(gallery)
            """
        return .html(PageLayout.page(title: "Changes", section: .stats, readOnly: site.readOnly, content))
    }
}
