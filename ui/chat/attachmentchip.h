#pragma once

#include "agent/conversation/attachment.h"

#include <QFrame>

QT_BEGIN_NAMESPACE
class QLabel;
class QToolButton;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    One attachment as a chip: a thumbnail for an image (an icon for a file),
    its name, and its type and size. A click (or Enter/Space) opens it: the
    file it was read from when that is known and still there, else a copy of
    the sent bytes written to the temporary folder, so a message reopened from
    a session still opens its image. In the composer the chip has a remove
    button; in the chat it has none.
*/
class AttachmentChip final : public QFrame
{
    Q_OBJECT

public:
    // \a path: the file it was read from, empty for one that never was a file (a pasted image).
    AttachmentChip(const Attachment &attachment, const QString &path, bool removable,
                   QWidget *parent = nullptr);

    const Attachment &attachment() const { return m_attachment; }
    QString path() const { return m_path; }
    // "PNG image · 800 × 600 · 1.2 MB": what the chip shows under the name.
    QString description() const;
    QLabel *thumbnail() const { return m_thumbnail; }
    QToolButton *removeButton() const { return m_remove; }

    // What a click opens: the original file, or a copy of the attachment's bytes (see the class).
    QUrl openUrl() const;
    void open();

signals:
    void removeRequested();

protected:
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    Attachment m_attachment;
    QString m_path;
    QLabel *m_thumbnail;
    QToolButton *m_remove = nullptr;
};

} // namespace Loopscope::Ui
