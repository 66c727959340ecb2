#pragma once

#include "agent/tools/linediff.h"

#include <QPlainTextEdit>

namespace Loopscope::Ui {

/*!
    A unified diff, read-only: added lines on green, removed on red, hunk
    headers dim, and a gutter with each line's old and new number. At most
    maxVisibleLines tall; longer diffs scroll inside it, so a large change
    never pushes the approval's buttons out of the window.
*/
class DiffView final : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit DiffView(QWidget *parent = nullptr);

    void setDiff(const LineDiff &diff);
    const LineDiff &diff() const { return m_diff; }
    // What the gutter shows beside a line of the view: "12  13", "    14", "" for a header.
    QString gutterText(int line) const;

    void setMaxVisibleLines(int lines);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    class Gutter;
    friend class Gutter;

    void paintGutter(QPaintEvent *event);
    void updateGutterGeometry();
    void fitHeight();
    void render();
    int gutterWidth() const;

    LineDiff m_diff;
    int m_digits = 1;
    int m_maxVisibleLines = 16;
    QWidget *m_gutter;
};

} // namespace Loopscope::Ui
