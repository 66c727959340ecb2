#include "ui/chat/composerattachments.h"

#include "ui/chat/attachmentchip.h"
#include "ui/chat/chatsurface.h"

#include <QBuffer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMimeData>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QStringList localFiles(const QMimeData *data)
{
    QStringList paths;
    if (!data->hasUrls())
        return paths;
    for (const QUrl &url : data->urls()) {
        if (url.isLocalFile())
            paths.append(url.toLocalFile());
    }
    return paths;
}

// The clipboard's image as it was copied when it is a PNG, else encoded as one.
QByteArray imageBytes(const QMimeData *data)
{
    if (QByteArray png = data->data(u"image/png"_s); !png.isEmpty())
        return png;
    const QImage image = qvariant_cast<QImage>(data->imageData());
    if (image.isNull())
        return {};
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QList<AttachmentLoad> loadFiles(const QStringList &paths)
{
    QList<AttachmentLoad> loads;
    for (const QString &path : paths)
        loads.append(AttachmentLoader::load(path));
    return loads;
}

} // namespace

ComposerAttachments::ComposerAttachments(QWidget *parent)
    : QWidget(parent)
    , m_chipRow(new QWidget(this))
    , m_chips(new QHBoxLayout(m_chipRow))
    , m_problem(new QLabel(this))
{
    setAccessibleName(tr("Attachments"));
    m_chips->setContentsMargins(0, 0, 0, 0);
    m_chips->setSpacing(chatSpacing(this, 0.25));
    m_chips->addStretch(1);

    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setAccessibleName(tr("Attachment problem"));
    QPalette palette = m_problem->palette();
    // Red enough to read as a problem on a light or a dark theme.
    palette.setColor(QPalette::WindowText,
                     mixColors(palette.color(QPalette::WindowText), QColor(0xd0, 0x20, 0x20), 0.75));
    m_problem->setPalette(palette);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(chatSpacing(this, 0.25));
    layout->addWidget(m_chipRow);
    layout->addWidget(m_problem);
    updateVisibility();
}

// A file still being read goes on being read on the pool: wait for it, so nothing outlives its watcher.
ComposerAttachments::~ComposerAttachments()
{
    for (QFutureWatcherBase *watcher : std::as_const(m_watchers))
        watcher->waitForFinished();
}

bool ComposerAttachments::canTake(const QMimeData *data)
{
    return data && (!localFiles(data).isEmpty() || data->hasImage());
}

bool ComposerAttachments::take(const QMimeData *data)
{
    if (!data)
        return false;
    if (const QStringList paths = localFiles(data); !paths.isEmpty()) {
        addFiles(paths);
        return true;
    }
    if (!data->hasImage())
        return false;
    const QByteArray bytes = imageBytes(data);
    if (bytes.isEmpty()) {
        showProblem(tr("The pasted image could not be read."));
        return true;
    }
    addBytes(pastedName(), bytes);
    return true;
}

void ComposerAttachments::addFiles(const QStringList &paths)
{
    if (!paths.isEmpty())
        watch(paths, QtConcurrent::run(loadFiles, paths));
}

void ComposerAttachments::addBytes(const QString &name, const QByteArray &bytes)
{
    watch({QString()},
          QtConcurrent::run([name, bytes] { return QList{AttachmentLoader::fromBytes(name, bytes)}; }));
}

void ComposerAttachments::watch(const QStringList &paths, const QFuture<QList<AttachmentLoad>> &loads)
{
    ++m_loading;
    auto *watcher = new QFutureWatcher<QList<AttachmentLoad>>(this);
    m_watchers.append(watcher);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, paths] {
        m_watchers.removeOne(watcher);
        watcher->deleteLater();
        --m_loading;
        const QList<AttachmentLoad> results = watcher->result();
        QStringList errors;
        for (qsizetype i = 0; i < results.size(); ++i)
            finishLoad(paths.value(i), results.at(i), errors);
        showProblem(errors.join(u'\n'));
        emit changed();
    });
    watcher->setFuture(loads);
}

void ComposerAttachments::finishLoad(const QString &path, const AttachmentLoad &load, QStringList &errors)
{
    if (!load.ok()) {
        errors.append(load.error);
        return;
    }
    const Attachment &attachment = *load.attachment;
    // The same file twice is one attachment.
    for (const Entry &entry : std::as_const(m_entries)) {
        if (entry.attachment.sha256 == attachment.sha256 && entry.attachment.name == attachment.name)
            return;
    }
    addEntry(attachment, path);
}

void ComposerAttachments::addEntry(const Attachment &attachment, const QString &path)
{
    auto *chip = new AttachmentChip(attachment, path, true, m_chipRow);
    connect(chip, &AttachmentChip::removeRequested, this, [this, chip] {
        for (qsizetype i = 0; i < m_entries.size(); ++i) {
            if (m_entries.at(i).chip == chip) {
                remove(int(i));
                return;
            }
        }
    });
    m_chips->insertWidget(m_chips->count() - 1, chip); // before the stretch
    m_entries.append({attachment, path, chip});
    updateVisibility();
}

QList<Attachment> ComposerAttachments::attachments() const
{
    QList<Attachment> attachments;
    for (const Entry &entry : m_entries)
        attachments.append(entry.attachment);
    return attachments;
}

QList<ComposerAttachments::Item> ComposerAttachments::items() const
{
    QList<Item> items;
    for (const Entry &entry : m_entries)
        items.append({entry.attachment, entry.path});
    return items;
}

void ComposerAttachments::setItems(const QList<Item> &items)
{
    removeAll();
    for (const Item &item : items)
        addEntry(item.attachment, item.path);
    showProblem({});
    emit changed();
}

QList<AttachmentChip *> ComposerAttachments::chips() const
{
    QList<AttachmentChip *> chips;
    for (const Entry &entry : m_entries)
        chips.append(entry.chip);
    return chips;
}

void ComposerAttachments::remove(int index)
{
    if (index < 0 || index >= m_entries.size())
        return;
    const Entry entry = m_entries.takeAt(index);
    entry.chip->hide();
    entry.chip->deleteLater();
    showProblem({});
    emit changed();
}

void ComposerAttachments::removeAll()
{
    for (const Entry &entry : std::as_const(m_entries)) {
        entry.chip->hide();
        entry.chip->deleteLater();
    }
    m_entries.clear();
}

void ComposerAttachments::clear()
{
    const bool hadEntries = !m_entries.isEmpty();
    removeAll();
    showProblem({});
    if (hadEntries)
        emit changed();
}

QString ComposerAttachments::check()
{
    QStringList problems;
    if (m_loading > 0)
        problems.append(tr("The attachments are still being read: send again in a moment."));
    for (const Entry &entry : std::as_const(m_entries)) {
        if (entry.path.isEmpty())
            continue;
        const QFileInfo file(entry.path);
        if (!file.exists()) {
            problems.append(tr("'%1' is no longer on disk: remove it from the message or attach it again.")
                                .arg(entry.attachment.name));
        } else if (!file.isReadable()) {
            problems.append(tr("'%1' can no longer be read: remove it from the message or attach it again.")
                                .arg(entry.attachment.name));
        }
    }
    showProblem(problems.join(u'\n'));
    return problem();
}

void ComposerAttachments::showProblem(const QString &text)
{
    m_problem->setText(text);
    updateVisibility();
}

QString ComposerAttachments::problem() const
{
    return m_problem->text();
}

// pasted-image.png, then pasted-image-2.png ... so two pastes stay two names.
QString ComposerAttachments::pastedName() const
{
    const auto taken = [this](const QString &name) {
        return std::any_of(m_entries.cbegin(), m_entries.cend(),
                           [&name](const Entry &entry) { return entry.attachment.name == name; });
    };
    QString name = u"pasted-image.png"_s;
    for (int n = 2; taken(name); ++n)
        name = u"pasted-image-%1.png"_s.arg(n);
    return name;
}

void ComposerAttachments::updateVisibility()
{
    m_chipRow->setVisible(!m_entries.isEmpty());
    m_problem->setVisible(!m_problem->text().isEmpty());
    setVisible(!m_entries.isEmpty() || !m_problem->text().isEmpty());
}

} // namespace Loopscope::Ui
