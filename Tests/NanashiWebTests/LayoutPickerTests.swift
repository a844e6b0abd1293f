import NanashiCore
import Testing

@testable import NanashiWeb

@Suite struct LayoutPickerTests {
    /// The play page has a picture and a radio button per layout, the standard one checked, the
    /// Take back button of casual games, and the box that refuses challenges (checked until the
    /// script hears `welcome` say otherwise).
    @Test func thePlayPageOffersEveryLayoutAndATakeback() async {
        let html = await WebSite(source: FakeSource()).respond(to: WebRequest(method: "GET", target: "/play"))
            .text
        for layout in Layout.all {
            #expect(html.contains(#"value="\#(layout.name)""#), "\(layout.name)")
        }
        #expect(html.contains(#"<input type="radio" name="layout" value="standard" checked>"#))
        #expect(html.components(separatedBy: "class=\"layout-picture\"").count == Layout.all.count + 1)
        #expect(
            html.contains(
                #"<button type="button" class="secondary" id="takeback-button" hidden>Take back</button>"#))
        #expect(
            html.contains(
                #"<label class="check"><input type="checkbox" id="accept-challenges" checked> Accept challenges</label>"#
            ))
    }

    /// A picture is the board, rank 7 first: pieces, blockers and empty squares.
    @Test func aPictureDrawsTheBoard() throws {
        let picture = LayoutPicker.picture(try #require(Layout.named("centre")).position)
        let cells: [String] = picture.components(separatedBy: "<i").dropFirst().map { cell in
            cell.hasPrefix(">") ? "." : String(cell.dropFirst(8).prefix(1))
        }
        let expected: String = ["x.....o", ".......", ".......", "...b...", ".......", ".......", "o.....x"]
            .joined()
        #expect(cells.joined() == expected)
    }
}
