#pragma once

#include "agent/conversation/attachmentloader.h"

#include <QList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QFutureWatcherBase;
class QHBoxLayout;
class QLabel;
class QMimeData;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class AttachmentChip;

/*!
    The files waiting in the composer to go with the next question: chosen in
    the file dialog, dropped, or pasted (an image on the clipboard becomes
    pasted-image.png; a copied file is that file). Each is read on the thread
    pool by AttachmentLoader, as `loopscope run --attach` reads it, and shows
    as a removable chip; a file that cannot be sent (missing, unreadable, over
    the cap, a corrupt image, a type no model reads) shows why on the line
    under the chips and is not added. Before sending, check() says whether
    every file is still there to send.
*/
class ComposerAttachments final : public QWidget
{
    Q_OBJECT

public:
    explicit ComposerAttachments(QWidget *parent = nullptr);
    ~ComposerAttachments() override;

    // Whether \a data holds something to attach: local files, or an image.
    static bool canTake(const QMimeData *data);
    // Attaches what \a data holds (files first, else its image); false when it holds neither.
    bool take(const QMimeData *data);
    void addFiles(const QStringList &paths);
    // Bytes that were never a file, e.g. a pasted image, under \a name.
    void addBytes(const QString &name, const QByteArray &bytes);

    QList<Attachment> attachments() const;
    // An attachment with the file it was read from (empty for bytes that never were one).
    struct Item
    {
        Attachment attachment;
        QString path;
    };
    QList<Item> items() const;
    // Replaces the attachments, e.g. with those of a question being edited; no file is read again.
    void setItems(const QList<Item> &items);
    int count() const { return int(m_entries.size()); }
    bool isLoading() const { return m_loading > 0; }
    QList<AttachmentChip *> chips() const;
    void remove(int index);
    void clear();

    // Why the attachments cannot be sent now (still being read, or a file removed or made unreadable
    // since it was chosen); empty when they can. It shows the reason too.
    QString check();
    void showProblem(const QString &text);
    QString problem() const;
    QLabel *problemLabel() const { return m_problem; }

signals:
    void changed();

private:
    struct Entry
    {
        Attachment attachment;
        QString path; // empty for pasted bytes
        AttachmentChip *chip = nullptr;
    };

    // \a paths name the files \a loads reads, in order; an empty path is bytes that were never a file.
    void watch(const QStringList &paths, const QFuture<QList<AttachmentLoad>> &loads);
    void finishLoad(const QString &path, const AttachmentLoad &load, QStringList &errors);
    void addEntry(const Attachment &attachment, const QString &path);
    void removeAll();
    QString pastedName() const;
    void updateVisibility();

    QList<Entry> m_entries;
    QList<QFutureWatcherBase *> m_watchers;
    QWidget *m_chipRow;
    QHBoxLayout *m_chips;
    QLabel *m_problem;
    int m_loading = 0;
};

} // namespace Loopscope::Ui
