#pragma once

#include <QTextBrowser>

namespace Loopscope::Ui {

/*!
    A read-only, frameless text view as tall as its text, so that a message is
    one column of text in the chat's own scroll area rather than a box with a
    scroll bar of its own. Long blocks can be capped at a number of lines.
    Vertical wheel events go on to the chat unless the block itself scrolls.
*/
class TextBlockView final : public QTextBrowser
{
    Q_OBJECT

public:
    explicit TextBlockView(QWidget *parent = nullptr);

    // Without wrapping, long lines scroll sideways (code).
    void setWrapped(bool wrapped);
    // 0: no cap.
    void setMaximumLines(int lines);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void wheelEvent(QWheelEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitHeight();
    void keepShapedGlyphs(int position, int removed, int added);

    int m_maximumLines = 0;
};

} // namespace Loopscope::Ui
