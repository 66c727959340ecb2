#include "ui/settings/knowledgepage.h"

#include "agent/config/appsettings.h"
#include "agent/config/providerprofile.h"
#include "agent/session/knowledgebasesmodel.h"
#include "ui/settings/knowledgebasedialog.h"

#include <QComboBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

KnowledgePage::KnowledgePage(KnowledgeBasesModel *model, const ProviderProfileStore *profiles,
                             QWidget *parent)
    : SettingsPage(parent)
    , m_model(model)
    , m_profiles(profiles)
    , m_list(new QListView)
    , m_details(new QLabel)
    , m_progress(new QProgressBar)
    , m_cancel(new QPushButton(tr("S&top Indexing")))
    , m_add(new QPushButton(tr("A&dd…")))
    , m_remove(new QPushButton(tr("&Remove…")))
    , m_reindex(new QPushButton(tr("Re-&index")))
    , m_retrieval(new QComboBox)
    , m_status(new QLabel)
{
    m_list->setModel(m_model);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setAccessibleName(tr("Knowledge bases"));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_status->setWordWrap(true);
    m_progress->setAccessibleName(tr("Indexing progress"));
    m_retrieval->setAccessibleName(tr("Automatic retrieval"));
    m_details->setAccessibleName(tr("Knowledge base status"));
    connect(m_add, &QPushButton::clicked, this, &KnowledgePage::openAddDialog);
    connect(m_remove, &QPushButton::clicked, this, &KnowledgePage::askToRemove);
    connect(m_reindex, &QPushButton::clicked, this, &KnowledgePage::reindexSelected);
    connect(m_cancel, &QPushButton::clicked, this, &KnowledgePage::cancelSelected);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this, &KnowledgePage::refresh);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &KnowledgePage::refresh);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &KnowledgePage::refresh);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &KnowledgePage::refresh);
    connect(m_model, &QAbstractItemModel::modelReset, this, &KnowledgePage::refresh);
    connect(m_model, &KnowledgeBasesModel::message, m_status, &QLabel::setText);

    m_retrieval->addItem(tr("When the model searches them (knowledge_search)"));
    m_retrieval->addItem(tr("Also before every turn (automatic retrieval)"));
    m_retrieval->setToolTip(
        tr("Automatic retrieval searches the session's knowledge bases for the question and "
           "puts the best passages into the turn's requests, as loopscope run --retrieve auto."));

    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_reindex);
    buttons->addStretch();
    auto *listRow = new QHBoxLayout;
    listRow->addWidget(m_list, 1);
    listRow->addLayout(buttons);
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancel);
    auto *retrievalForm = new QFormLayout;
    retrievalForm->addRow(tr("Sessions search their knowledge bases:"), m_retrieval);

    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Folders and files the agent can search. A session attaches them with the "
                                "Knowledge button beside the message. Their folders are watched while "
                                "Loopscope runs, and changes are indexed in the background."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addLayout(listRow, 1);
    layout->addWidget(m_details);
    layout->addLayout(progressRow);
    layout->addWidget(m_status);
    layout->addLayout(retrievalForm);
    if (m_model->rowCount() > 0)
        m_list->setCurrentIndex(m_model->index(0));
    refresh();
}

void KnowledgePage::load(const AppSettings &settings)
{
    m_retrieval->setCurrentIndex(settings.retrieveKnowledgeBeforeTurn() ? 1 : 0);
}

void KnowledgePage::save(AppSettings &settings)
{
    settings.setRetrieveKnowledgeBeforeTurn(m_retrieval->currentIndex() == 1);
}

QString KnowledgePage::selectedName() const
{
    const QModelIndex current = m_list->currentIndex();
    return current.isValid() ? current.data().toString() : QString();
}

void KnowledgePage::refresh()
{
    const QModelIndex current = m_list->currentIndex();
    const bool selected = current.isValid();
    const bool indexing = selected && current.data(KnowledgeBasesModel::IndexingRole).toBool();
    m_remove->setEnabled(selected);
    m_reindex->setEnabled(selected && !indexing);
    m_progress->setVisible(indexing);
    m_cancel->setVisible(indexing);
    if (!selected) {
        m_details->setText(m_model->rowCount() == 0 ? tr("No knowledge base yet: add one.") : QString());
        return;
    }
    const int done = current.data(KnowledgeBasesModel::ProgressDoneRole).toInt();
    const int total = current.data(KnowledgeBasesModel::ProgressTotalRole).toInt();
    const bool passages = current.data(KnowledgeBasesModel::ProgressPhaseRole).toInt()
                          == int(KnowledgeIndexJob::Phase::Passages);
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(total > 0 ? done : 0);
    m_progress->setFormat(passages ? tr("Embedding: %1 of %2 passages").arg(done).arg(total)
                                   : tr("Indexing: %1 of %2 files").arg(done).arg(total));

    const QLocale locale;
    QStringList lines;
    QStringList paths;
    for (const QString &path : current.data(KnowledgeBasesModel::PathsRole).toStringList())
        paths.append(QDir::toNativeSeparators(path));
    lines.append(tr("Folders and files: %1").arg(paths.join(u", "_s)));
    const QDateTime lastIndexed = current.data(KnowledgeBasesModel::LastIndexedRole).toDateTime();
    lines.append(tr("Files %1 · passages %2 · %3 on disk · last indexed %4")
                     .arg(current.data(KnowledgeBasesModel::FilesRole).toInt())
                     .arg(current.data(KnowledgeBasesModel::ChunksRole).toInt())
                     .arg(locale.formattedDataSize(current.data(KnowledgeBasesModel::BytesRole).toLongLong()))
                     .arg(lastIndexed.isValid()
                              ? locale.toString(lastIndexed.toLocalTime(), QLocale::ShortFormat)
                              : tr("never")));
    const QString model = current.data(KnowledgeBasesModel::EmbeddingModelRole).toString();
    lines.append(model.isEmpty() ? tr("Embeddings: none (searched by its words)")
                                 : tr("Embeddings: %1, passages embedded %2 of %3")
                                       .arg(model)
                                       .arg(current.data(KnowledgeBasesModel::EmbeddedChunksRole).toInt())
                                       .arg(current.data(KnowledgeBasesModel::ChunksRole).toInt()));
    for (const QString &problem : current.data(KnowledgeBasesModel::ProblemsRole).toStringList())
        lines.append(tr("Problem: %1").arg(problem));
    const QStringList skipped = current.data(KnowledgeBasesModel::SkippedRole).toStringList();
    if (!skipped.isEmpty()) {
        lines.append(tr("Skipped %n file(s):", nullptr, int(skipped.size())));
        for (const QString &file : skipped)
            lines.append(u"  "_s + file);
    }
    m_details->setText(lines.join(u'\n'));
}

void KnowledgePage::openAddDialog()
{
    if (m_addDialog)
        return m_addDialog->raise();
    m_addDialog
        = new KnowledgeBaseDialog(m_profiles ? m_profiles->profiles() : QList<ProviderProfile>(), this);
    m_addDialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_addDialog, &QDialog::accepted, this, [this, dialog = m_addDialog] {
        const KnowledgeBaseDefinition base = dialog->definition();
        if (const QString error = m_model->add(base); !error.isEmpty()) {
            m_status->setText(error);
            return;
        }
        m_list->setCurrentIndex(m_model->index(m_model->rowOf(base.name)));
        m_status->setText(tr("Indexing the knowledge base '%1' in the background.").arg(base.name));
    });
    m_addDialog->open();
}

void KnowledgePage::askToRemove()
{
    const QString name = selectedName();
    if (name.isEmpty())
        return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Remove Knowledge Base"),
                                tr("Remove the knowledge base '%1' and delete its index? The documents "
                                   "themselves stay where they are.")
                                    .arg(name),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [this, name](int result) {
        if (result != QMessageBox::Yes)
            return;
        const QString error = m_model->remove(name);
        m_status->setText(error.isEmpty() ? tr("Removed the knowledge base '%1'.").arg(name) : error);
    });
    box->open();
}

void KnowledgePage::reindexSelected()
{
    if (const QString name = selectedName(); !name.isEmpty())
        m_model->reindex(name);
}

void KnowledgePage::cancelSelected()
{
    if (const QString name = selectedName(); !name.isEmpty())
        m_model->cancel(name);
}

} // namespace Loopscope::Ui
