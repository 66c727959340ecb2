#include "ui/trace/jsonhighlighter.h"

#include "ui/trace/traceicons.h"

#include <QGuiApplication>
#include <QPalette>

namespace Loopscope::Ui {

JsonHighlighter::JsonHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{
    setPalette(QGuiApplication::palette());
}

QColor JsonHighlighter::color(Token token, const QPalette &palette)
{
    const bool dark = TraceIcons::isDark(palette);
    switch (token) {
    case Token::Key: return dark ? QColor(0x9c, 0xdc, 0xfe) : QColor(0x00, 0x45, 0x9e);
    case Token::String: return dark ? QColor(0xce, 0x91, 0x78) : QColor(0xa3, 0x15, 0x15);
    case Token::Number: return dark ? QColor(0xb5, 0xce, 0xa8) : QColor(0x09, 0x86, 0x58);
    case Token::Literal: return dark ? QColor(0xc5, 0x86, 0xc0) : QColor(0x80, 0x00, 0x80);
    case Token::Punctuation: return palette.color(QPalette::PlaceholderText);
    }
    return palette.color(QPalette::Text);
}

void JsonHighlighter::setPalette(const QPalette &palette)
{
    m_key = color(Token::Key, palette);
    m_string = color(Token::String, palette);
    m_number = color(Token::Number, palette);
    m_literal = color(Token::Literal, palette);
    m_punctuation = color(Token::Punctuation, palette);
    rehighlight();
}

void JsonHighlighter::highlightBlock(const QString &text)
{
    const qsizetype size = text.size();
    qsizetype i = 0;
    while (i < size) {
        const QChar c = text.at(i);
        if (c == u'"') {
            qsizetype end = i + 1;
            while (end < size && text.at(end) != u'"')
                end += text.at(end) == u'\\' ? 2 : 1;
            end = std::min(end + 1, size);
            qsizetype next = end;
            while (next < size && text.at(next).isSpace())
                ++next;
            const bool isKey = next < size && text.at(next) == u':';
            setFormat(int(i), int(end - i), isKey ? m_key : m_string);
            i = end;
        } else if (c == u'-' || c.isDigit()) {
            qsizetype end = i + 1;
            while (end < size && (text.at(end).isDigit() || QStringView(u".eE+-").contains(text.at(end))))
                ++end;
            setFormat(int(i), int(end - i), m_number);
            i = end;
        } else if (c.isLetter()) {
            qsizetype end = i + 1;
            while (end < size && text.at(end).isLetter())
                ++end;
            setFormat(int(i), int(end - i), m_literal);
            i = end;
        } else {
            if (!c.isSpace())
                setFormat(int(i), 1, m_punctuation);
            ++i;
        }
    }
}

} // namespace Loopscope::Ui
