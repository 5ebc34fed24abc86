"""Request-body models of the ModelArts training jobs API (modelarts-kit; do not edit).

Only request bodies use these models, so they are loaded on first use: import them from
``models`` or the package (this module's name is not part of the API)."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ._field_rules import Excludes, Requires, field_rules_validator
from .models import (
    _DeferredRootModel,
)


class AutoSearchAlgoConfigParameterInput(BaseModel):
    """
    A parameter of a search algorithm.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    key: StrictStr | None = None
    """
    Parameter key.
    """
    value: StrictStr | None = None
    """
    Parameter value.
    """
    type: StrictStr | None = None
    """
    Parameter type.
    """


class AutoStop(BaseModel):
    """
    Auto stop configuration of a training job. The vendor pages reference an `auto_stop`
    object but print no table for it; its fields follow the vendor's SDK model
    `AutoStop` (huaweicloudsdkmodelarts): stop the job after `duration` `time_unit`s.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    time_unit: StrictStr | None = None
    """
    Unit of `duration`, for example `HOURS`.
    """
    duration: Annotated[StrictInt | None, Field(ge=1)] = None
    """
    Running time after which the job is stopped, in `time_unit`s.
    """


class ConstraintInput(BaseModel):
    """
    Constraint of a running parameter.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    type: StrictStr | None = None
    """
    Parameter type, for example `String` or `Integer`.
    """
    editable: StrictBool | None = None
    """
    Whether the parameter is editable.
    """
    required: StrictBool | None = None
    """
    Whether the parameter is mandatory.
    """
    sensitive: StrictBool | None = None
    """
    Whether the parameter is sensitive. Not implemented by the service yet.
    """
    valid_type: StrictStr | None = None
    """
    Valid type.
    """
    valid_range: list[StrictStr] | None = None
    """
    Valid range.
    """


class DatasetInput(BaseModel):
    """
    A dataset as the data input.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    id: StrictStr
    """
    Dataset ID.
    """
    version_id: StrictStr
    """
    Dataset version ID.
    """
    obs_url: StrictStr | None = None
    """
    OBS URL of the dataset, for example `/usr/data/`. ModelArts derives it from the
    dataset ID and version ID.
    """
    name: StrictStr | None = None
    """
    No documentation page mentions it; the vendor SDK's request and response models
    `InputDataInfoDataset`, `InputDataInfoRespDataset` (huaweicloudsdkmodelarts 3.1.219)
    declare `name` as `str`. Optional: a service that does not send it still conforms.
    """
    service_type: StrictStr | None = None
    """
    No documentation page mentions it; the vendor SDK's request and response models
    `InputDataInfoDataset`, `InputDataInfoRespDataset` (huaweicloudsdkmodelarts 3.1.219)
    declare `service_type` as `str`. Optional: a service that does not send it still
    conforms.
    """


class DeleteTrainingJobBody(_DeferredRootModel[Any]):
    model_config = ConfigDict(defer_build=True)
    root: Any
    """
    The optional body of a delete: the page documents no request parameters, and the
    service ignores a body. modelarts-macli sends an empty JSON object (`{}`).
    """


class Filter(BaseModel):
    """
    One search condition of the training job list.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    key: StrictStr | None = None
    """
    Field the condition is about, for example `name`, `create_time`, `phase`,
    `algorithm_name`, `kind` or `user_id`.
    """
    operator: Literal["between", "like", "in", "not"] | None = None
    """
    How the field relates to the values: `between` (in the range of the two values),
    `like` (contains the value), `in` (equals one of the values) or `not` (equals none
    of them).
    """
    value: list[StrictStr] | None = None
    """
    Values of the condition.
    """


class I18NDescriptionInput(BaseModel):
    """
    Internationalized description of a parameter.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    language: StrictStr | None = None
    """
    Language of the description, for example `zh-cn` (Chinese) or `en-us` (English).
    """
    description: StrictStr | None = None
    """
    Description in that language.
    """


class JobActionType(BaseModel):
    """
    The action to perform on a training job.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="forbid",
        populate_by_name=True,
    )
    action_type: Literal["terminate"]
    """
    Action to perform on the training job. `terminate` terminates the job.
    """


class JobEngine(BaseModel):
    """
    Engine of a training job to create. Choose it in one of three ways: `engine_id`,
    `engine_name` + `engine_version`, or `image_url`. A preset framework with a custom
    image sets `engine_name`, `engine_version` and `image_url` together. Leave the
    engine out when the algorithm is chosen by `id` or `subscription_id` +
    `item_version_id`.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    engine_id: StrictStr | None = None
    """
    ID of the engine selected for the training job, for example `pytorch-cp36-1.4.0-v2`.
    """
    engine_name: StrictStr | None = None
    """
    Name of the engine selected for the training job. Leave it blank if `engine_id` is
    set.
    """
    engine_version: StrictStr | None = None
    """
    Version of the engine selected for the training job. Leave it blank if `engine_id`
    is set.
    """
    image_url: StrictStr | None = None
    """
    Custom image URL selected for the training job, obtained from SWR, in the form
    `organization/image:tag`.
    """
    install_sys_packages: StrictBool | None = None
    """
    Whether to install the MoXing version specified by the training platform (`true`
    installs it). Only available when `engine_name`, `engine_version` and `image_url`
    are set.
    """
    # which fields go together (the spec's not and dependentRequired)
    _field_rules = field_rules_validator(
        Requires(
            ("engine_name", "engine_version"),
            "guidance at /components/schemas/JobEngine/dependentRequired/engine_name; ledger entry guidance-engine-choose-one",
        ),
        Requires(
            ("engine_version", "engine_name"),
            "guidance at /components/schemas/JobEngine/dependentRequired/engine_version; ledger entry guidance-engine-choose-one",
        ),
        Requires(
            ("install_sys_packages", "engine_name", "engine_version", "image_url"),
            "guidance at /components/schemas/JobEngine/dependentRequired/install_sys_packages; ledger entry guidance-engine-choose-one",
        ),
        Excludes(
            ("engine_id", "engine_name"),
            "guidance at /components/schemas/JobEngine/allOf/0/not; ledger entry guidance-engine-choose-one",
        ),
        Excludes(
            ("engine_id", "image_url"),
            "guidance at /components/schemas/JobEngine/allOf/1/not; ledger entry guidance-engine-choose-one",
        ),
    )


class JobMetadata(BaseModel):
    """
    Metadata of a training job to create.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    name: Annotated[StrictStr, Field(max_length=64, min_length=1, pattern="^[A-Za-z0-9_-]{1,64}$")]
    """
    Name of the training job: 1 to 64 characters, only digits, letters, underscores (_)
    and hyphens (-).
    """
    workspace_id: StrictStr = "0"
    """
    Workspace where the job is located. The default value is `0`.
    """
    description: Annotated[StrictStr | None, Field(max_length=256)] = None
    """
    Description of the training job, 0 to 256 characters. Empty (NULL) by default.
    """
    annotations: dict[str, StrictStr] | None = None
    """
    Advanced configuration of the training job, as key-value pairs. Known keys:
    `job_template` (`Template RL` for heterogeneous jobs, `Template DL` otherwise),
    `fault-tolerance/job-retry-num` (for example `3`, retries upon a fault),
    `fault-tolerance/job-unconditional-retry` (`true`, unconditional restart),
    `fault-tolerance/hang-retry` (`true`, restart upon a suspension),
    `jupyter-lab/enable`, `tensorboard/enable` and `mindstudio-insight/enable` (`true`,
    enable the JupyterLab, TensorBoard or MindStudio Insight training application).
    """


class JobSearches(BaseModel):
    """
    The search criteria of the training job list: filters, sorting, grouping and the
    page to return.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    offset: Annotated[StrictInt | None, Field(ge=0)] = None
    """
    Page of the jobs to return, from 0 (the first page). The minimum value is 0.
    """
    limit: Annotated[StrictInt | None, Field(ge=1, le=50)] = None
    """
    Number of jobs on each page, 1 to 50.
    """
    sort_by: StrictStr = "create_time"
    """
    Field by which the jobs are sorted. `create_time` by default.
    """
    order: Literal["desc", "asc"] = "desc"
    """
    Order of the jobs: `desc` (descending, the default) or `asc` (ascending).
    """
    group_by: StrictStr | None = None
    """
    Condition by which the jobs are grouped.
    """
    workspace_id: StrictStr = "0"
    """
    Workspace whose jobs are searched. The default value is `0`. Not in the page's
    request table: the vendor SDK's JobSearches has it and modelarts-macli sends it.
    """
    filters: list[Filter] | None = None
    """
    Filters the jobs must meet, all of them.
    """


class JobUpdateRequestBody(BaseModel):
    """
    The new description of a training job.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    description: Annotated[StrictStr | None, Field(max_length=256)] = None
    """
    Description of the training job, 0 to 256 characters. Empty (NULL) by default.
    """


class LogExportPathInput(BaseModel):
    """
    Where the training job logs are exported.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    obs_url: StrictStr | None = None
    """
    OBS URL for storing the training job logs, for example `obs://example/path`.
    """
    host_path: StrictStr | None = None
    """
    Path of the host where the training job logs are stored, for example
    `/example/path`.
    """


class NfsInput(BaseModel):
    """
    A volume attached in NFS mode.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    nfs_server_path: StrictStr | None = None
    """
    NFS server path, for example `10.10.10.10:/example/path`.
    """
    local_path: StrictStr | None = None
    """
    Path in the training container where the volume is attached, for example
    `/example/path`.
    """
    read_only: StrictBool | None = None
    """
    Whether the volume is read-only in the container.
    """


class ObsInput(BaseModel):
    """
    An OBS path as the data input.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    obs_url: StrictStr
    """
    OBS URL of the data the training job needs, for example `/usr/data/`.
    """


class ParameterInputI18NDescription(_DeferredRootModel[I18NDescriptionInput | None]):
    model_config = ConfigDict(defer_build=True)
    root: I18NDescriptionInput | None
    """
    Internationalized description of the parameter; `null` when there is none.
    """


class RemoteConstraintInput(BaseModel):
    """
    A data input constraint.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    data_type: StrictStr | None = None
    """
    Data input type, the data storage location or a dataset.
    """
    attributes: Literal["data_format", "data_segmentation", "dataset_type"] | StrictStr | None = (
        None
    )
    """
    Attributes when a dataset is the data input: `data_format` (data format),
    `data_segmentation` (data segmentation) or `dataset_type` (labeling type).
    """


class RemoteObsInput(BaseModel):
    """
    An OBS location for data.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    obs_url: StrictStr
    """
    OBS URL of the data.
    """


class RewardAttrsInput(BaseModel):
    """
    A search metric.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    name: StrictStr | None = None
    """
    Metric name.
    """
    mode: Literal["max", "min"] | None = None
    """
    Search direction: `max` (a larger value is better) or `min` (a smaller value is
    better).
    """
    regex: StrictStr | None = None
    """
    Regular expression of the metric.
    """


class SearchParamsInput(BaseModel):
    """
    A hyperparameter to search.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    name: StrictStr | None = None
    """
    Hyperparameter name.
    """
    param_type: Literal["continuous", "discrete"] | None = None
    """
    Parameter type: `continuous` (shown as a text box on the console) or `discrete`
    (shown as a drop-down list).
    """
    lower_bound: StrictStr | None = None
    """
    Lower bound of the hyperparameter.
    """
    upper_bound: StrictStr | None = None
    """
    Upper bound of the hyperparameter.
    """
    discrete_points_num: StrictStr | None = None
    """
    Number of discrete points of a continuous hyperparameter.
    """
    discrete_values: list[StrictStr] | None = None
    """
    Values of a discrete hyperparameter.
    """


class SpecResource1(BaseModel):
    """
    Resource flavor of a training job to create: `flavor_id` (public resource pool) or
    `pool_id` with an optional `flavor_id` (dedicated resource pool).
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    flavor_id: StrictStr
    """
    ID of the resource flavor. It cannot be set for dedicated resource pools with CPU
    flavors. For dedicated pools with GPU or Ascend flavors it is one of
    `modelarts.pool.visual.xlarge` (1 card), `modelarts.pool.visual.2xlarge` (2 cards),
    `modelarts.pool.visual.4xlarge` (4 cards) or `modelarts.pool.visual.8xlarge` (8
    cards).
    """
    node_count: Annotated[StrictInt, Field(ge=1)] = 1
    """
    Number of nodes (resource replicas) of the training job. One node by default.
    """
    pool_id: StrictStr | None = None
    """
    ID of the dedicated resource pool.
    """


class SpecResource2(BaseModel):
    """
    Resource flavor of a training job to create: `flavor_id` (public resource pool) or
    `pool_id` with an optional `flavor_id` (dedicated resource pool).
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    flavor_id: StrictStr | None = None
    """
    ID of the resource flavor. It cannot be set for dedicated resource pools with CPU
    flavors. For dedicated pools with GPU or Ascend flavors it is one of
    `modelarts.pool.visual.xlarge` (1 card), `modelarts.pool.visual.2xlarge` (2 cards),
    `modelarts.pool.visual.4xlarge` (4 cards) or `modelarts.pool.visual.8xlarge` (8
    cards).
    """
    node_count: Annotated[StrictInt, Field(ge=1)] = 1
    """
    Number of nodes (resource replicas) of the training job. One node by default.
    """
    pool_id: StrictStr
    """
    ID of the dedicated resource pool.
    """


class SpecResource(_DeferredRootModel[SpecResource1 | SpecResource2]):
    model_config = ConfigDict(defer_build=True)
    root: SpecResource1 | SpecResource2
    """
    Resource flavor of a training job to create: `flavor_id` (public resource pool) or
    `pool_id` with an optional `flavor_id` (dedicated resource pool).
    """


class TaskAlgorithmEngine(BaseModel):
    """
    Engine of a heterogeneous job algorithm. Chosen as the job's engine is: `engine_id`,
    `engine_name` + `engine_version`, or `image_url` (guidance, as for the job's
    engine).
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    engine_id: StrictStr | None = None
    """
    Engine ID of the heterogeneous job, for example `caffe-1.0.0-python2.7`.
    """
    engine_name: StrictStr | None = None
    """
    Engine name of the heterogeneous job, for example `Caffe`.
    """
    engine_version: StrictStr | None = None
    """
    Engine version of the heterogeneous job.
    """
    image_url: StrictStr | None = None
    """
    Custom image URL selected for the algorithm.
    """
    # which fields go together (the spec's not and dependentRequired)
    _field_rules = field_rules_validator(
        Requires(
            ("engine_name", "engine_version"),
            "guidance at /components/schemas/TaskAlgorithmEngine/dependentRequired/engine_name; ledger entry guidance-task-engine-choose-one",
        ),
        Requires(
            ("engine_version", "engine_name"),
            "guidance at /components/schemas/TaskAlgorithmEngine/dependentRequired/engine_version; ledger entry guidance-task-engine-choose-one",
        ),
        Excludes(
            ("engine_id", "engine_name"),
            "guidance at /components/schemas/TaskAlgorithmEngine/allOf/0/not; ledger entry guidance-task-engine-choose-one",
        ),
        Excludes(
            ("engine_id", "image_url"),
            "guidance at /components/schemas/TaskAlgorithmEngine/allOf/1/not; ledger entry guidance-task-engine-choose-one",
        ),
    )


class TaskInputRemote(BaseModel):
    """
    Where the input data of a heterogeneous job comes from (only OBS is supported).
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    obs: ObsInput | None = None


class TaskResource(BaseModel):
    """
    Resource flavor of a task.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    flavor_id: StrictStr | None = None
    """
    Resource flavor ID of the task.
    """
    node_count: Annotated[StrictInt, Field(ge=1)]
    """
    Number of resource replicas (nodes) of the task.
    """


class AlgoConfigsInput(BaseModel):
    """
    Configuration of a search algorithm.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    name: StrictStr | None = None
    """
    Name of the search algorithm.
    """
    params: list[AutoSearchAlgoConfigParameterInput] | None = None
    """
    Parameters of the search algorithm.
    """


class AutoSearchInput(BaseModel):
    """
    Hyperparameter search configuration.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    skip_search_params: StrictStr | None = None
    """
    Hyperparameters to skip.
    """
    reward_attrs: list[RewardAttrsInput] | None = None
    """
    Search metrics.
    """
    search_params: list[SearchParamsInput] | None = None
    """
    Search parameters.
    """
    algo_configs: list[AlgoConfigsInput] | None = None
    """
    Search algorithm configurations.
    """


class InputDataInfoInput1(BaseModel):
    """
    Where the input data comes from: a dataset (`dataset`) or an OBS path (`obs`), not
    both.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    dataset: DatasetInput
    obs: ObsInput | None = None


class InputDataInfoInput2(BaseModel):
    """
    Where the input data comes from: a dataset (`dataset`) or an OBS path (`obs`), not
    both.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    dataset: DatasetInput | None = None
    obs: ObsInput


class InputDataInfoInput(_DeferredRootModel[InputDataInfoInput1 | InputDataInfoInput2]):
    model_config = ConfigDict(defer_build=True)
    root: InputDataInfoInput1 | InputDataInfoInput2
    """
    Where the input data comes from: a dataset (`dataset`) or an OBS path (`obs`), not
    both.
    """
    # which fields go together (the spec's not and dependentRequired)
    _field_rules = field_rules_validator(
        Excludes(
            ("dataset", "obs"),
            "guidance at /components/schemas/InputDataInfo/not; ledger entry guidance-input-dataset-or-obs",
        ),
    )


class InputInput(BaseModel):
    """
    A data input channel of a training job or algorithm.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    name: StrictStr
    """
    Name of the data input channel.
    """
    description: StrictStr | None = None
    """
    Description of the data input channel.
    """
    local_dir: StrictStr | None = None
    """
    Local directory of the container to which the data input channel is mapped, for
    example `/home/ma-user/modelarts/inputs/data_url_0`.
    """
    remote: InputDataInfoInput
    remote_constraint: list[RemoteConstraintInput] | None = None
    """
    Data input constraints.
    """
    access_method: StrictStr | None = None
    """
    No documentation page mentions it; the vendor SDK's request and response models
    `InputResp`, `Input` (huaweicloudsdkmodelarts 3.1.219) declare `access_method` as
    `str`. Optional: a service that does not send it still conforms.
    """


class JobVolumeInput(BaseModel):
    """
    A volume attached to a training job.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    nfs: NfsInput | None = None


class ParameterInput(BaseModel):
    """
    A running parameter of a training job or algorithm.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    name: StrictStr | None = None
    """
    Parameter name.
    """
    value: StrictStr | None = None
    """
    Parameter value.
    """
    description: StrictStr | None = None
    """
    Parameter description.
    """
    constraint: ConstraintInput | None = None
    i18n_description: ParameterInputI18NDescription | None = None


class PoliciesInputAutoSearch(_DeferredRootModel[AutoSearchInput | None]):
    model_config = ConfigDict(defer_build=True)
    root: AutoSearchInput | None
    """
    Hyperparameter search configuration; `null` when there is none.
    """


class RemoteInput(BaseModel):
    """
    Where the output data actually goes.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    obs: RemoteObsInput


class Spec(BaseModel):
    """
    Specifications of a training job to create.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    resource: SpecResource | None = None
    volumes: list[JobVolumeInput] | None = None
    """
    Volumes attached to the training job.
    """
    log_export_path: LogExportPathInput | None = None
    auto_stop: AutoStop | None = None


class TaskInput(BaseModel):
    """
    A data input channel of a heterogeneous job algorithm.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    name: StrictStr
    """
    Name of the data input channel.
    """
    description: StrictStr | None = None
    """
    Description of the data input channel.
    """
    local_dir: StrictStr | None = None
    """
    Local directory of the container to which the data input channel is mapped.
    """
    remote: TaskInputRemote


class OutputInput(BaseModel):
    """
    A data output channel of a training job or algorithm.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    name: StrictStr
    """
    Name of the data output channel.
    """
    description: StrictStr | None = None
    """
    Description of the data output channel.
    """
    local_dir: StrictStr | None = None
    """
    Local directory of the container to which the data output channel is mapped, for
    example `/home/ma-user/modelarts/outputs/train_url_0`.
    """
    remote: RemoteInput
    access_method: StrictStr | None = None
    """
    No documentation page mentions it; the vendor SDK's request and response models
    `OutputResp`, `Output` (huaweicloudsdkmodelarts 3.1.219) declare `access_method` as
    `str`. Optional: a service that does not send it still conforms.
    """


class PoliciesInput(BaseModel):
    """
    Policies supported by jobs, used for hyperparameter search.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    auto_search: PoliciesInputAutoSearch | None = None


class JobAlgorithm(BaseModel):
    """
    Algorithm used by a training job to create. Choose the algorithm in one of three
    ways: `id` (an algorithm from algorithm management), `subscription_id` +
    `item_version_id` (a subscribed algorithm), or `code_dir` + `boot_file` (your own
    code). A custom image started with `command` needs none of them.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    id: StrictStr | None = None
    """
    Algorithm ID (an algorithm from algorithm management).
    """
    name: StrictStr | None = None
    """
    Algorithm name. Leave it blank.
    """
    subscription_id: StrictStr | None = None
    """
    Subscription ID of a subscribed algorithm. Must be used with `item_version_id`.
    """
    item_version_id: StrictStr | None = None
    """
    Version ID of the subscribed algorithm. Must be used with `subscription_id`.
    """
    code_dir: StrictStr | None = None
    """
    Code directory of the training job, for example `/usr/app/`. Must be used with
    `boot_file`. Leave it blank if `id` or `subscription_id` + `item_version_id` is set.
    """
    boot_file: StrictStr | None = None
    """
    Boot file of the training job, stored in the code directory, for example
    `/usr/app/boot.py`. Must be used with `code_dir`. Leave it blank if `id` or
    `subscription_id` + `item_version_id` is set.
    """
    autosearch_config_path: StrictStr | None = None
    """
    YAML configuration path of an auto search job. An OBS URL, for example
    `obs://bucket/file.yaml`.
    """
    autosearch_framework_path: StrictStr | None = None
    """
    Framework code directory of an auto search job. An OBS URL, for example
    `obs://bucket/files/`.
    """
    command: StrictStr | None = None
    """
    Command that starts the container of the custom image of the training job, for
    example `python train.py`.
    """
    parameters: list[ParameterInput] | None = None
    """
    Running parameters of the training job.
    """
    policies: PoliciesInput | None = None
    inputs: list[InputInput] | None = None
    """
    Data inputs of the training job.
    """
    outputs: list[OutputInput] | None = None
    """
    Data outputs of the training job.
    """
    engine: JobEngine | None = None
    local_code_dir: StrictStr | None = None
    """
    Local directory of the training container to which the algorithm code directory is
    downloaded. It must be under `/home`; it has no effect in v1 compatibility mode or
    when `code_dir` starts with `file://`.
    """
    working_dir: StrictStr | None = None
    """
    Work directory where the algorithm runs. No effect in v1 compatibility mode.
    """
    environments: dict[str, StrictStr] | list[dict[str, StrictStr]] | None = None
    """
    Environment variables of the training job, as `key: value` pairs. The service also
    accepts the shape a job's details return (a list of `key: value` maps), so a job
    shown can be created again as it is.
    """
    # which fields go together (the spec's not and dependentRequired)
    _field_rules = field_rules_validator(
        Requires(
            ("subscription_id", "item_version_id"),
            "guidance at /components/schemas/JobAlgorithm/dependentRequired/subscription_id; ledger entry guidance-algorithm-choose-one",
        ),
        Requires(
            ("item_version_id", "subscription_id"),
            "guidance at /components/schemas/JobAlgorithm/dependentRequired/item_version_id; ledger entry guidance-algorithm-choose-one",
        ),
        Requires(
            ("code_dir", "boot_file"),
            "guidance at /components/schemas/JobAlgorithm/dependentRequired/code_dir; ledger entry guidance-algorithm-choose-one",
        ),
        Requires(
            ("boot_file", "code_dir"),
            "guidance at /components/schemas/JobAlgorithm/dependentRequired/boot_file; ledger entry guidance-algorithm-choose-one",
        ),
        Excludes(
            ("id", "subscription_id"),
            "guidance at /components/schemas/JobAlgorithm/allOf/0/not; ledger entry guidance-algorithm-choose-one",
        ),
        Excludes(
            ("id", "code_dir"),
            "guidance at /components/schemas/JobAlgorithm/allOf/1/not; ledger entry guidance-algorithm-choose-one",
        ),
        Excludes(
            ("subscription_id", "code_dir"),
            "guidance at /components/schemas/JobAlgorithm/allOf/2/not; ledger entry guidance-algorithm-choose-one",
        ),
    )


class JobConfig(BaseModel):
    """
    Algorithm configuration of a task, such as its parameters, inputs and outputs.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    parameters: list[ParameterInput] | None = None
    """
    Running parameters of the algorithm.
    """
    inputs: list[InputInput] | None = None
    """
    Data inputs of the algorithm.
    """
    outputs: list[OutputInput] | None = None
    """
    Data outputs of the algorithm.
    """
    engine: JobEngine | None = None


class TaskAlgorithm(BaseModel):
    """
    Algorithm management and configuration of a task.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    job_config: JobConfig | None = None
    code_dir: StrictStr | None = None
    """
    Algorithm code directory, for example `/usr/app/`. Must be used with `boot_file`.
    """
    boot_file: StrictStr | None = None
    """
    Boot file of the algorithm, stored in the code directory, for example
    `/usr/app/boot.py`. Must be used with `code_dir`.
    """
    engine: TaskAlgorithmEngine | None = None
    inputs: list[TaskInput] | None = None
    """
    Data inputs of the algorithm.
    """
    outputs: list[OutputInput] | None = None
    """
    Data outputs of the algorithm.
    """
    local_code_dir: StrictStr | None = None
    """
    Local directory of the training container to which the algorithm code directory is
    downloaded. It must be under `/home`; it has no effect in v1 compatibility mode or
    when `code_dir` starts with `file://`.
    """
    working_dir: StrictStr | None = None
    """
    Work directory where the algorithm runs. No effect in v1 compatibility mode.
    """
    # which fields go together (the spec's not and dependentRequired)
    _field_rules = field_rules_validator(
        Requires(
            ("code_dir", "boot_file"),
            "guidance at /components/schemas/TaskAlgorithm/dependentRequired/code_dir; ledger entry guidance-task-algorithm-code-pair",
        ),
        Requires(
            ("boot_file", "code_dir"),
            "guidance at /components/schemas/TaskAlgorithm/dependentRequired/boot_file; ledger entry guidance-task-algorithm-code-pair",
        ),
    )


class Task(BaseModel):
    """
    A task of a heterogeneous training job to create.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    role: StrictStr | None = None
    """
    Task role. Not supported by the service yet.
    """
    algorithm: TaskAlgorithm | None = None
    task_resource: TaskResource | None = None


class Job(BaseModel):
    """
    A training job to create. `spec` and `tasks` exclude each other: when `spec` is
    given, leave `tasks` out.
    """

    model_config = ConfigDict(
        defer_build=True,
        extra="allow",
        populate_by_name=True,
    )
    kind: Literal["job", "hetero_job", "autosearch_job", "mrs_job", "edge_job"]
    """
    Training job type. The default value is `job`, a training job. Other types:
    `hetero_job` (heterogeneous job), `autosearch_job` (auto search job), `mrs_job` (MRS
    job), `edge_job` (edge job).
    """
    metadata: JobMetadata
    algorithm: JobAlgorithm | None = None
    tasks: list[Task] | None = None
    """
    Task list (heterogeneous jobs). Not implemented by the service yet.
    """
    spec: Spec | None = None  # which fields go together (the spec's not and dependentRequired)
    _field_rules = field_rules_validator(
        Excludes(
            ("spec", "tasks"),
            "guidance at /components/schemas/Job/not; ledger entry guidance-job-spec-or-tasks",
        ),
    )


__all__ = [
    "AlgoConfigsInput",
    "AutoSearchAlgoConfigParameterInput",
    "AutoSearchInput",
    "AutoStop",
    "ConstraintInput",
    "DatasetInput",
    "DeleteTrainingJobBody",
    "Filter",
    "I18NDescriptionInput",
    "InputDataInfoInput",
    "InputDataInfoInput1",
    "InputDataInfoInput2",
    "InputInput",
    "Job",
    "JobActionType",
    "JobAlgorithm",
    "JobConfig",
    "JobEngine",
    "JobMetadata",
    "JobSearches",
    "JobUpdateRequestBody",
    "JobVolumeInput",
    "LogExportPathInput",
    "NfsInput",
    "ObsInput",
    "OutputInput",
    "ParameterInput",
    "ParameterInputI18NDescription",
    "PoliciesInput",
    "PoliciesInputAutoSearch",
    "RemoteConstraintInput",
    "RemoteInput",
    "RemoteObsInput",
    "RewardAttrsInput",
    "SearchParamsInput",
    "Spec",
    "SpecResource",
    "SpecResource1",
    "SpecResource2",
    "Task",
    "TaskAlgorithm",
    "TaskAlgorithmEngine",
    "TaskInput",
    "TaskInputRemote",
    "TaskResource",
]
