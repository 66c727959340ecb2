#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class TextBlockView;

/*!
    A fenced code block (or a tool's arguments and result): monospace text on
    its own surface, the language above it and a Copy button. Long lines
    scroll sideways unless wrapped.
*/
class CodeBlockView final : public QWidget
{
    Q_OBJECT

public:
    explicit CodeBlockView(QWidget *parent = nullptr);

    void setCode(const QString &code, const QString &language = {});
    QString code() const { return m_code; }
    QString language() const { return m_language; }

    void setWrapped(bool wrapped);
    void setMaximumLines(int lines);

    TextBlockView *textView() const { return m_text; }
    QToolButton *copyButton() const { return m_copy; }

    void copyToClipboard();

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_code;
    QString m_language;
    QLabel *m_languageLabel;
    QToolButton *m_copy;
    TextBlockView *m_text;
    QTimer *m_copiedFeedback;
};

} // namespace Loopscope::Ui
