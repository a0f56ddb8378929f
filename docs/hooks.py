"""MkDocs hooks: the JSON API page is rendered from the server's own OpenAPI description."""

from analyzer.web import openapi


def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.src_uri == "reference/api.md":
        return markdown.replace("<!-- openapi -->", openapi.markdown())
    return markdown
