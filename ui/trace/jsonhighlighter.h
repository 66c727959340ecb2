#pragma once

#include <QColor>
#include <QSyntaxHighlighter>

class QPalette;

namespace Loopscope::Ui {

/*!
    Colours JSON text by token: keys, strings, numbers, and true/false/null each
    in their own hue, chosen for the palette's base so they read in light and
    dark themes. The details pane's Raw tab and its JSON tree share these colours,
    so a value looks the same in both. It colours a block at a time and keeps no
    state between blocks, which holds for pretty-printed JSON (one token never
    spans a line).
*/
class JsonHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT

public:
    enum class Token { Key, String, Number, Literal, Punctuation };

    explicit JsonHighlighter(QTextDocument *document);

    static QColor color(Token token, const QPalette &palette);
    // Picks the colours again, e.g. after the palette changed.
    void setPalette(const QPalette &palette);

protected:
    void highlightBlock(const QString &text) override;

private:
    QColor m_key;
    QColor m_string;
    QColor m_number;
    QColor m_literal;
    QColor m_punctuation;
};

} // namespace Loopscope::Ui
