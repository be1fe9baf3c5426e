import Wardrobe

/// The buttons that correct a label: one form per act, posted to `/label`
/// with the page's token, so they work without JavaScript; with it, each
/// button answers to its key (`data-key`).
enum LabelForms {
    /// The key of each label in review: 1...9 and 0 for the ten, n for none.
    static func key(of label: Int) -> String {
        label == LabelMatcher.noneLabel ? "n" : label == 9 ? "0" : String(label + 1)
    }

    static func buttons(id: Int64, back: String, token: String, modelLabel: String?, corrected: Bool,
                        keys: Bool, undoable: Bool = false) -> HTML {
        func form(_ action: String, label: String?, text: HTML, key: String?, primary: Bool = false) -> HTML {
            let labelField: HTML = label.map { "<input type=\"hidden\" name=\"label\" value=\"\(text: $0)\">" } ?? ""
            let keyAttribute: HTML = keys && key != nil ? " data-key=\"\(text: key)\"" : ""
            let keyHint: HTML = keys && key != nil ? "<kbd>\(text: key == "enter" ? "Enter" : key)</kbd>" : ""
            let undo: HTML = undoable ? "<input type=\"hidden\" name=\"undoable\" value=\"1\">" : ""
            // Markup, not text: a String interpolated into HTML would be escaped and lose its quotes.
            let style: HTML = primary ? " class=\"primary\"" : ""
            return """
                <form method="post" action="/label"><input type="hidden" name="token" value="\(text: token)">\
                <input type="hidden" name="id" value="\(id)"><input type="hidden" name="action" value="\(text: action)">\
                \(labelField)<input type="hidden" name="back" value="\(text: back)">\(undo)\
                <button type="submit"\(style)\(keyAttribute)>\(keyHint)\(text)</button></form>
                """
        }
        var forms: [HTML] = []
        if let modelLabel {
            forms.append(form("confirm", label: nil, text: "Confirm \(text: modelLabel)", key: "enter", primary: true))
        }
        for label in 0...LabelMatcher.noneLabel {
            let name = LabelMatcher.name(of: label)
            forms.append(form("label", label: name, text: "\(text: name)", key: key(of: label)))
        }
        if corrected { forms.append(form("clear", label: nil, text: "Clear my label", key: nil)) }
        return "<div class=\"labels\">\(forms)</div>"
    }

    /// `undo` and `was` from a page's query (empty values already dropped): the image just
    /// acted on and the person's label it had before (empty: none); nil when not given.
    static func undo(_ query: [String: String]) throws -> (image: Int64, was: String)? {
        guard let text = query["undo"] else { return nil }
        guard let id = try? SiteError.imageID(text) else { throw SiteError.badRequest("undo is an image number") }
        let was = query["was"] ?? ""
        guard was.isEmpty || (try? LabelMatcher.index(of: was)) != nil else {
            throw SiteError.badRequest("was is a label, or empty for none")
        }
        return (id, was)
    }

    /// After an act: a button (key `u`) that puts the person's label back as it was, then goes to `back`.
    static func undoNotice(id: Int64, was: String, back: String, token: String) -> HTML {
        """
        <form class="inline notice" method="post" action="/label"><input type="hidden" name="token" value="\(text: token)">\
        <input type="hidden" name="id" value="\(id)"><input type="hidden" name="action" value="restore">\
        <input type="hidden" name="label" value="\(text: was)"><input type="hidden" name="back" value="\(text: back)">\
        <span>Saved.</span><button type="submit" data-key="u"><kbd>u</kbd>Undo</button></form>
        """
    }
}
