#include "ui/chat/codeblockview.h"

#include "ui/chat/chatsurface.h"
#include "ui/chat/textblockview.h"

#include <QClipboard>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QTextCursor>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QFont monospaceFont(const QFont &like)
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setStyleHint(QFont::Monospace);
    font.setFixedPitch(true);
    font.setPointSizeF(like.pointSizeF() > 0 ? like.pointSizeF() : font.pointSizeF());
    return font;
}

} // namespace

CodeBlockView::CodeBlockView(QWidget *parent)
    : QWidget(parent)
    , m_languageLabel(new QLabel(this))
    , m_copy(new QToolButton(this))
    , m_text(new TextBlockView(this))
    , m_copiedFeedback(new QTimer(this))
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    m_languageLabel->setForegroundRole(QPalette::PlaceholderText);
    m_copy->setText(tr("Copy"));
    m_copy->setToolTip(tr("Copy the code to the clipboard"));
    m_copy->setAccessibleName(tr("Copy code"));
    m_copy->setIcon(QIcon::fromTheme(u"edit-copy"_s));
    m_copy->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_copy->setAutoRaise(true);
    connect(m_copy, &QToolButton::clicked, this, &CodeBlockView::copyToClipboard);

    m_copiedFeedback->setSingleShot(true);
    m_copiedFeedback->setInterval(1500);
    connect(m_copiedFeedback, &QTimer::timeout, this, [this] { m_copy->setText(tr("Copy")); });

    m_text->setFont(monospaceFont(font()));
    m_text->setWrapped(false);
    m_text->setAccessibleName(tr("Code"));

    const int gap = chatSpacing(this, 0.25);
    const int padding = chatSpacing(this, 0.5);
    auto *header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_languageLabel);
    header->addStretch(1);
    header->addWidget(m_copy);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(padding, gap, padding, padding);
    layout->setSpacing(gap);
    layout->addLayout(header);
    layout->addWidget(m_text);
}

void CodeBlockView::setCode(const QString &code, const QString &language)
{
    if (!m_code.isEmpty() && code.size() > m_code.size() && code.startsWith(m_code)) {
        // Streamed code grows at its end: only the new lines are laid out.
        QTextCursor cursor(m_text->document());
        cursor.movePosition(QTextCursor::End);
        cursor.insertText(code.mid(m_code.size()));
        m_code = code;
    } else if (code != m_code) {
        m_code = code;
        m_text->setPlainText(code);
    }
    m_language = language;
    m_languageLabel->setText(language);
    m_text->setAccessibleName(language.isEmpty() ? tr("Code") : tr("%1 code").arg(language));
}

void CodeBlockView::setWrapped(bool wrapped)
{
    m_text->setWrapped(wrapped);
}

void CodeBlockView::setMaximumLines(int lines)
{
    m_text->setMaximumLines(lines);
}

void CodeBlockView::copyToClipboard()
{
    QGuiApplication::clipboard()->setText(m_code);
    m_copy->setText(tr("Copied"));
    m_copiedFeedback->start();
}

void CodeBlockView::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event);
    QPainter painter(this);
    paintSurface(painter, this, ChatSurface::Code);
}

} // namespace Loopscope::Ui
