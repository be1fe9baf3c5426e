import Wardrobe

/// The form that sets a garment's colour on the image page: the palette as a list, posted to
/// `/colour` with the page's token (so it works without JavaScript), and a button that takes a
/// person's colour back. The act is `wardrobe colour`'s, recorded with the command `serve`.
enum ColourForm {
    /// `colour`: the colour the image shows now (selected in the list); `byPerson`: a person
    /// gave it, so it can be taken back.
    static func html(id: Int64, colour: String?, byPerson: Bool, token: String) -> HTML {
        let options = ColourSetter.names.map { name -> HTML in
            let selected: HTML = name == colour ? " selected" : ""
            return "<option value=\"\(text: name)\"\(selected)>\(text: name)</option>"
        }
        let fields: HTML = """
            <input type="hidden" name="token" value="\(text: token)"><input type="hidden" name="id" value="\(id)">\
            <input type="hidden" name="back" value="/image/\(id)">
            """
        let clear: HTML = byPerson ? """
            <form class="inline" method="post" action="/colour">\(fields)<input type="hidden" name="action" value="clear">\
            <button type="submit">Clear my colour</button></form>
            """ : ""
        return """
            <div class="colours"><form class="inline" method="post" action="/colour">\(fields)\
            <input type="hidden" name="action" value="set"><label>Colour <select name="colour">\(options)</select></label> \
            <button type="submit">Set colour</button></form>\(clear)</div>
            """
    }
}
